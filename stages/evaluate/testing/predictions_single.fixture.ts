import { fixtureTable, FIXTURE_COLUMNS } from './fixture-table.ts';
export default fixtureTable(FIXTURE_COLUMNS.predictions_single!);
