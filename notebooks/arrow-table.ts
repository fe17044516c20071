/**
 * Rows as an Arrow IPC file (apache-arrow), which the notebooks load with tableFromIPC
 * (lib/arrow-rows.js): columnar and typed, repeated strings (settings, models, judges, guideline
 * ids) dictionary-encoded, lists and objects as Arrow lists and structs.
 *
 * The column types come from the values (the rows are the warehouse's JSON rows or rows computed
 * from them): booleans → Bool, numbers → Float64 (a bigint becomes a number, as JSON gave it),
 * strings → Utf8, arrays → List, objects → Struct over every key any row has. A column whose values
 * are of different kinds (a JSON column holding numbers and strings) is stored as the JSON text
 * of each value, its field marked `cdp.json`, and parsed back by the loader: every value
 * arrives as it was.
 */
import {
  Bool,
  Dictionary,
  Field,
  Float64,
  Int32,
  List,
  Null,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  tableToIPC,
  vectorFromArray,
  type DataType,
} from 'apache-arrow';

/** Field metadata of a column stored as JSON text (values of different kinds). */
export const JSON_FIELD = 'cdp.json';

type Kind = 'boolean' | 'number' | 'string' | 'array' | 'object';

function kindOf(v: unknown, where: string): Kind {
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v === v ? (typeof v as Kind) : 'number';
  if (typeof v === 'bigint') return 'number';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  throw new TypeError(`${where}: a ${typeof v} value cannot be stored for the notebooks; give the column plain JSON values`);
}

const present = (values: readonly unknown[]) => values.filter((v) => v !== null && v !== undefined);

/** The field for a column's values; `top` dictionary-encodes strings (Arrow JS builds dictionaries at the top level only). */
export function fieldOf(name: string, values: readonly unknown[], top = false): Field {
  const vs = present(values);
  const kinds = new Set(vs.map((v) => kindOf(v, name)));
  if (kinds.size > 1) return new Field(name, new Utf8(), true, new Map([[JSON_FIELD, '1']]));
  const kind = [...kinds][0];
  let type: DataType;
  if (kind === undefined) type = new Null();
  else if (kind === 'boolean') type = new Bool();
  else if (kind === 'number') type = new Float64();
  else if (kind === 'string') type = top ? new Dictionary(new Utf8(), new Int32()) : new Utf8();
  else if (kind === 'array') type = new List(fieldOf('item', (vs as unknown[][]).flat(1)));
  else
    type = new Struct(
      keysOf(vs as Record<string, unknown>[]).map((k) =>
        fieldOf(
          k,
          vs.map((o) => (o as Record<string, unknown>)[k]),
        ),
      ),
    );
  return new Field(name, type, true);
}

function keysOf(rows: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) keys.add(k);
  return [...keys];
}

/** A column's values as the field stores them: JSON text for a `cdp.json` field, numbers for bigints. */
function stored(field: Field, values: readonly unknown[]): unknown[] {
  if (field.metadata.get(JSON_FIELD)) return values.map((v) => (v === null || v === undefined ? null : JSON.stringify(v)));
  const norm = (v: unknown): unknown =>
    typeof v === 'bigint'
      ? Number(v)
      : Array.isArray(v)
        ? v.map(norm)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]))
          : v;
  return values.map((v) => (v === undefined ? null : norm(v)));
}

/** The rows as an Arrow table, one column per key any row has, in the order the keys first appear. */
export function arrowTable(rows: readonly Record<string, unknown>[]): Table {
  const fields = keysOf(rows).map((k) =>
    fieldOf(
      k,
      rows.map((r) => r[k]),
      true,
    ),
  );
  const children = fields.map((f) => {
    const v = vectorFromArray(
      stored(
        f,
        rows.map((r) => r[f.name]),
      ),
      f.type,
    );
    // vectorFromArray builds one chunk; a second would need batches split alike across columns.
    if (v.data.length !== 1) throw new Error(`notebook data column '${f.name}' was built in ${v.data.length} chunks; expected one`);
    return v.data[0]!;
  });
  const schema = new Schema(fields);
  const data = makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children });
  return new Table([new RecordBatch(schema, data)]);
}

/** The rows as the bytes of an Arrow IPC file. */
export function arrowIpc(rows: readonly Record<string, unknown>[]): Uint8Array {
  return tableToIPC(arrowTable(rows), 'file');
}
