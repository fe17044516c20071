// The notebooks' data: Arrow IPC files written by `cdp notebooks` (notebooks/arrow-table.ts) from the
// warehouse, read with apache-arrow's tableFromIPC. Vite bundles apache-arrow from node_modules, so
// the pages load nothing from a CDN (Notebook Kit's own FileAttachment.arrow() would).
import { tableFromIPC, DataType } from 'apache-arrow';

/** Field metadata of a column stored as the JSON text of each value (values of different kinds). */
const JSON_FIELD = 'cdp.json';

/** One Arrow value as plain JS, led by its field's type: lists as arrays, structs as objects. */
function plain(value, field) {
  if (value === null || value === undefined) return null;
  if (field.metadata.get(JSON_FIELD)) return JSON.parse(value);
  const type = field.type;
  if (DataType.isList(type)) return Array.from(value, (v) => plain(v, type.children[0]));
  if (DataType.isStruct(type)) return Object.fromEntries(type.children.map((f) => [f.name, plain(value[f.name], f)]));
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** Every row of an Arrow IPC file's table as a plain object. */
export function rowsFromArrow(bytes) {
  const table = tableFromIPC(bytes);
  const fields = table.schema.fields;
  const columns = fields.map((f) => table.getChild(f.name));
  const rows = new Array(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row = {};
    fields.forEach((f, j) => (row[f.name] = plain(columns[j].get(i), f)));
    rows[i] = row;
  }
  return rows;
}

/** What each page loaded: file name, rows and bytes (the notebook tests read it). */
export const loaded = [];

/**
 * A FileAttachment of an .arrow file as plain rows; `name` is the table's (the built file's own
 * name carries a content hash, or is a data: URL when Vite inlines a small file).
 */
export async function loadRows(file, name) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const rows = rowsFromArrow(bytes);
  loaded.push({ name, format: 'arrow', rows: rows.length, bytes: bytes.length });
  globalThis.cdpLoadedData = loaded;
  return rows;
}
