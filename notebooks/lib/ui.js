// Small DOM helpers for the notebooks. Observable Inputs and htl load from a CDN in Notebook Kit,
// and these pages must work offline, so filters and tables are plain elements built here.

/** Distinct non-null values of a column, sorted (numbers numerically). */
export function unique(rows, column) {
  const values = [...new Set(rows.map((r) => r[column]).filter((v) => v !== null && v !== undefined))];
  return values.sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
}

// The last choice per filter name: a select re-created because an upstream filter changed (the
// case viewer's model list depends on the setting) keeps the reader's choice when it still exists.
const remembered = new Map();

/**
 * A labelled <select> usable with view(): its value is the chosen option, or null for "all".
 * The select's own input event bubbles to the label, which is what view() listens to.
 */
export function select(name, options, { all = true, value = remembered.get(name) } = {}) {
  const label = document.createElement('label');
  label.className = 'cdp-filter';
  label.dataset.name = name;
  label.append(`${name} `);
  const sel = document.createElement('select');
  sel.name = name;
  if (all) sel.append(new Option('(all)', ''));
  for (const o of options) sel.append(new Option(String(o), String(o)));
  if (value !== undefined && options.map(String).includes(String(value))) sel.value = String(value);
  const current = () => {
    if (sel.value === '') return null;
    const i = options.findIndex((o) => String(o) === sel.value);
    return i >= 0 ? options[i] : sel.value;
  };
  label.value = current();
  sel.addEventListener('input', () => {
    label.value = current();
    remembered.set(name, sel.value === '' ? undefined : sel.value);
  });
  sel.addEventListener('change', () => {
    // Some drivers only fire change: keep view() informed either way.
    if (label.value !== current()) {
      label.value = current();
      remembered.set(name, sel.value === '' ? undefined : sel.value);
      label.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  label.append(sel);
  return label;
}

/** Rows whose columns equal the given filter values (null = no constraint). */
export function where(rows, filters) {
  const active = Object.entries(filters).filter(([, v]) => v !== null && v !== undefined);
  return rows.filter((r) => active.every(([k, v]) => r[k] === v));
}

export function fmt(v, digits = 3) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(digits);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A table of rows with a caption counting them; data-name lets readers (and tests) find it. */
export function table(rows, columns, { name, caption } = {}) {
  const wrap = document.createElement('div');
  wrap.className = 'cdp-table-wrap';
  const t = document.createElement('table');
  t.className = 'cdp-table';
  if (name) t.dataset.name = name;
  const cap = t.createCaption();
  cap.textContent = `${caption ? caption + ': ' : ''}${rows.length} row${rows.length === 1 ? '' : 's'}`;
  const head = t.createTHead().insertRow();
  for (const c of columns) {
    const th = document.createElement('th');
    th.textContent = typeof c === 'string' ? c : c.label;
    head.append(th);
  }
  const body = t.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    if (isSimulated(r)) tr.className = 'simulated';
    for (const c of columns) {
      const v = typeof c === 'string' ? r[c] : c.value(r);
      tr.insertCell().textContent = typeof c === 'string' ? fmt(v) : String(v ?? '—');
    }
  }
  wrap.append(t);
  return wrap;
}

/** The flags the stages copy from the roster's specs into their rows: the model's, the judge's, the patient's. */
export const SIMULATED_FLAGS = ['simulated', 'judge_simulated', 'patient_simulated'];

/**
 * A row involves a simulated agent: one of its flags says so. Only flags count, never a name: a
 * real model may be named anything, and a row without a flag (a store older than the column) is
 * not taken for simulated.
 */
export function isSimulated(row) {
  return SIMULATED_FLAGS.some((f) => row[f] === true);
}

/**
 * The judges of `rows` as agents for simulatedNote: each distinct judge with the flag its rows
 * carry (`judge_simulated`); rows without a judge (SR) give none.
 */
export function judgeAgents(rows) {
  return unique(rows, 'judge').map((name) => ({ name, simulated: rows.some((r) => r.judge === name && r.judge_simulated === true) }));
}

function checkAgent(a) {
  if (typeof a !== 'object' || a === null || typeof a.name !== 'string' || typeof a.simulated !== 'boolean')
    throw new TypeError(
      `simulatedNote: agent ${JSON.stringify(a)} is not {name, simulated}; pass the rows' flags (judgeAgents(rows)), not a bare name`,
    );
  return a;
}

/**
 * The notice every view of simulated agents carries. `agents` are agents shown outside the rows
 * (a table's judge columns, say), each `{name, simulated}` with the flag its rows carry.
 */
export function simulatedNote(rows, { agents = [] } = {}) {
  const n = rows.filter(isSimulated).length;
  const others = agents.map(checkAgent).filter((a) => a.simulated);
  const p = document.createElement('p');
  p.className = 'cdp-simulated-note';
  const parts = [];
  if (n) parts.push(`${n} of ${rows.length} rows shown involve simulated agents (offline stand-ins, not LLM results).`);
  if (others.length) parts.push(`Simulated judges shown: ${others.map((a) => a.name).join(', ')}.`);
  p.textContent = parts.length ? parts.join(' ') : 'No simulated rows shown.';
  return p;
}

/** A fraction as a percentage with 2 decimals; "—" when absent. */
export function pct(v) {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : (100 * v).toFixed(2);
}

/** "(44.07–45.16)", or "" without a CI. */
export function pctCi(lo, hi) {
  return lo === null || lo === undefined || hi === null || hi === undefined ? '' : `(${pct(lo)}–${pct(hi)})`;
}

const KIND_COUNTS = [
  ['answer', 'answer_failures'],
  ['server', 'server_failures'],
  ['patient', 'patient_failures'],
  ['missing', 'missing_cases'],
  ['unscored', 'unscored'],
];

/** A cell's counts as the reports print them: "n=37 · answer 2 · server 1" (cases in the mean, then the failures by kind). */
export function counts(c) {
  if (typeof c?.counts === 'string') return c.counts;
  const parts = [`n=${c?.n ?? 0}`, ...KIND_COUNTS.filter(([, k]) => (c?.[k] ?? 0) > 0).map(([label, k]) => `${label} ${c[k]}`)];
  // A summary row of an older store has only the total.
  if (parts.length === 1 && (c?.failures ?? 0) > 0) parts.push(`failures ${c.failures}`);
  return parts.join(' · ');
}

/**
 * The CI level the rows record (model_summary's `level`): "95%", "90% and 95% (mixed)", or
 * "(level not recorded)" for rows of a store older than the column.
 */
export function ciLevel(rows) {
  const levels = [...new Set(rows.map((r) => r.level).filter((v) => typeof v === 'number'))].sort();
  if (!levels.length) return '(level not recorded)';
  const shown = levels.map((v) => `${Number((v * 100).toPrecision(12))}%`);
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)} (mixed)`;
}

/** A block that spans the page width, out of the notebook's narrow text column. */
export function wide() {
  const d = document.createElement('div');
  d.className = 'cdp-wide';
  return d;
}

/** The case viewer's address for a case: its filters in the fragment. */
export function caseLink(setting, model, cdp_id, judge) {
  return `./case-viewer.html#${new URLSearchParams({ setting, model, cdp_id, judge }).toString()}`;
}

/** A filter value given in the page's fragment (#setting=multi&model=…), for links into a page. */
export function fromHash(name) {
  return new URLSearchParams(location.hash.slice(1)).get(name) ?? undefined;
}

export const style = `
.cdp-table { border-collapse: collapse; font-size: 13px; margin: 0.5em 0; }
.cdp-table caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
.cdp-table th, .cdp-table td { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
.cdp-table tr.simulated td:first-child::before { content: "simulated · "; color: #a33; font-size: 11px; }
.cdp-filter { display: inline-block; margin: 0 1em 0.5em 0; font: 13px sans-serif; }
.cdp-simulated-note { color: #a33; font: 13px sans-serif; }
.cdp-side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.cdp-wide { width: min(calc(100vw - 48px), 1400px); position: relative; left: 50%; transform: translateX(-50%); overflow-x: auto; }
.cdp-wide .cdp-table { width: 100%; }
.cdp-raw { white-space: pre-wrap; font: 12px monospace; background: #f6f6f6; padding: 6px; border: 1px solid #ddd; }
.cdp-failure { color: #a33; }
`;

/** Adds the helpers' stylesheet once. */
export function installStyle() {
  if (document.getElementById('cdp-style')) return;
  const s = document.createElement('style');
  s.id = 'cdp-style';
  s.textContent = style;
  document.head.append(s);
}
