/**
 * The one module a stage imports from the runner. It is deliberately small: a stage's code
 * identity includes what it imports, so importing the whole runner would rerun every stage
 * whenever the runner changed.
 */
export { tableStage, rowStage } from './dag/stage.ts';
export type { StageContext, TableStage, RowStage, Unit, StageImpl } from './dag/stage.ts';
export type { Row, Columns } from './dag/define.ts';
