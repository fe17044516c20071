/**
 * The notebooks built from a fixture warehouse (fixture-warehouse.ts: hand-written rows typed by
 * the stage modules' own column declarations) and opened in headless Chromium: every page
 * renders without console errors or requests leaving 127.0.0.1, shows the expected tables with
 * their hand-counted rows, and its filters change what is shown. Screenshots go to
 * test-artifacts/notebooks/.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { writeFixtureWarehouse } from './testing/fixture-warehouse.ts';
import { exportNotebookData, NOTEBOOK_DATA, OPTIONAL_NOTEBOOK_DATA } from './export-data.ts';
import { openWarehouse } from '../pipeline/store/warehouse.ts';
// @ts-expect-error the pages' plain-JS loader, the same code the notebooks run
import { rowsFromArrow } from './lib/arrow-rows.js';
// @ts-expect-error the pages' plain-JS helpers, the same code the notebooks run
import { isSimulated, judgeAgents, simulatedNote } from './lib/ui.js';
import { tableFromIPC } from 'apache-arrow';
import { buildNotebookSite, notebookPages } from './build-site.ts';
import { serveSite } from './serve-site.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'notebooks');

let tmp = '';
let warehouse = '';
let baseline = '';
// The fixture with its judges' names saying the opposite of their flags.
let flipped = '';
const FLIPPED_NAMES = { 'judge-llm': 'simulated-foo', 'simulated-tfidf': 'gpt-x' };
let siteDir = '';
let built = { stdout: '', stderr: '' };
let server: Server;
let baseUrl = '';
let browser: Browser;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'cdp-notebooks-'));
  warehouse = join(tmp, 'warehouse.duckdb');
  await writeFixtureWarehouse(ROOT, warehouse, join(tmp, 'fixture'));
  // The compare notebook's run A: the same fixture before "one param change" moved gpt-test's DTW PCC on cdp-a (0.8 → 0.5).
  baseline = join(tmp, 'baseline.duckdb');
  await writeFixtureWarehouse(ROOT, baseline, join(tmp, 'fixture-baseline'), { gptTestDtw: 0.8 });
  flipped = join(tmp, 'flipped.duckdb');
  await writeFixtureWarehouse(ROOT, flipped, join(tmp, 'fixture-flipped'), { judgeNames: FLIPPED_NAMES });
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
}

/**
 * Rows per data file a page loads: the warehouse's count for an exported query, the count `cdp
 * notebooks` reported for the computed ones (leaderboard, compare), one for compare_runs.
 */
async function expectedRows(files: string[]): Promise<Record<string, number>> {
  const rows = await warehouseRows(warehouse, tmp);
  const exported = Object.fromEntries(
    [...(/exported (.*)/.exec(built.stderr)?.[1] ?? '').matchAll(/(\w+) \((\d+)\)/g)].map((m) => [m[1]!, Number(m[2])]),
  );
  return Object.fromEntries(files.map((f) => [f, rows[f]?.length ?? exported[f] ?? (f === 'compare_runs' ? 1 : NaN)]));
}

const readArrow = (file: string) => rowsFromArrow(readFileSync(file)) as Record<string, unknown>[];

/** The warehouse's rows of every exported query, as DuckDB gives them (the JSON form the pages used to load). */
async function warehouseRows(file: string, store: string): Promise<Record<string, Record<string, unknown>[]>> {
  const w = await openWarehouse(file, store, { readOnly: true });
  try {
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [name, sql] of Object.entries({ ...NOTEBOOK_DATA, ...OPTIONAL_NOTEBOOK_DATA }))
      out[name] = (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
    return out;
  } finally {
    w.close();
  }
}

/**
 * The page's data came from Arrow: it fetched no JSON, and the rows each .arrow file gave it
 * (lib/arrow-rows.js records them by table) number as many as the warehouse's table.
 */
async function expectArrowData(o: Opened, files: Record<string, number>): Promise<void> {
  assert.deepEqual(
    o.requests.filter((u) => /\.json($|\?)/.test(u)),
    [],
    'no JSON requested',
  );
  const loaded = (await o.page.evaluate(() => (globalThis as { cdpLoadedData?: unknown }).cdpLoadedData)) as
    { name: string; format: string; rows: number }[] | undefined;
  assert.deepEqual(Object.fromEntries((loaded ?? []).map((l) => [l.name, l.rows])), files);
  assert.ok(loaded!.every((l) => l.format === 'arrow'));
}

/** Opens a page with every request outside the local server (`base`) aborted and recorded. */
async function open(name: string, ready: string, base = baseUrl): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
    problems.push(`request outside the site: ${url}`);
    return route.abort();
  });
  await page.goto(base + name);
  await page.waitForSelector(ready, { timeout: 15000 });
  return { page, problems, requests };
}

async function settle(o: Opened, name: string): Promise<void> {
  await o.page.waitForLoadState('networkidle');
  const cellErrors = await o.page.$$eval('.observablehq--error', (es) => es.map((e) => e.textContent ?? ''));
  await o.page.screenshot({ path: join(ARTIFACTS, name.replace('.html', '.png')), fullPage: true });
  assert.deepEqual([...o.problems, ...cellErrors.map((e) => `cell error: ${e}`)], [], `${name} rendered with problems`);
}

const rowCount = (page: Page, table: string) => page.locator(`table[data-name="${table}"] tbody tr`).count();

/** Waits until a table has the given number of rows (filters re-render asynchronously). */
async function expectRows(page: Page, table: string, n: number): Promise<void> {
  try {
    await page.waitForFunction(
      ([t, k]) => document.querySelectorAll(`table[data-name="${t}"] tbody tr`).length === k,
      [table, n] as const,
      { timeout: 5000 },
    );
  } catch {
    assert.equal(await rowCount(page, table), n, `rows of table ${table}`);
  }
}

/** Column values of a table, by header label. */
async function column(page: Page, table: string, label: string): Promise<string[]> {
  return page.$$eval(
    `table[data-name="${table}"]`,
    ([t], l) => {
      const i = Array.from(t.querySelectorAll('thead th')).findIndex((th) => th.textContent === l);
      return Array.from(t.querySelectorAll('tbody tr')).map((tr) => tr.children[i]?.textContent ?? '');
    },
    label,
  );
}

const choose = (page: Page, filter: string, value: string) => page.selectOption(`label[data-name="${filter}"] select`, value);

/**
 * Chooses a filter value whose select may be re-created by an upstream choice still being
 * computed (the case viewer's options depend on the earlier filters): chooses again until the
 * select keeps the value and the page shows `text`.
 */
async function chooseUntil(page: Page, filter: string, value: string, text: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await choose(page, filter, value);
    try {
      await page.waitForFunction(
        ([f, v, t]) =>
          (document.querySelector(`label[data-name="${f}"] select`) as HTMLSelectElement | null)?.value === v &&
          (document.body.textContent ?? '').includes(t),
        [filter, value, text] as const,
        { timeout: 2000 },
      );
      return;
    } catch {
      // the select was replaced after the choice; choose again
    }
  }
  assert.fail(`choosing ${filter} = ${value} never showed "${text}"`);
}

describe('telling simulated rows', () => {
  test('a row is simulated by its flags alone: a judge named "gpt-x" flagged simulated counts, one named "simulated-foo" flagged real does not', () => {
    const real = { setting: 'single', model: 'gpt-test', simulated: false };
    assert.equal(isSimulated({ ...real, judge: 'gpt-x', judge_simulated: true }), true);
    assert.equal(isSimulated({ ...real, judge: 'simulated-foo', judge_simulated: false }), false);
    assert.equal(isSimulated({ ...real, patient: 'p-x', patient_simulated: true }), true);
    assert.equal(isSimulated({ ...real, patient: 'simulated-patient', patient_simulated: false }), false);
    assert.equal(isSimulated({ ...real, model: 'simulated-oracle', simulated: true }), true);
    // A row of a store older than the flags is not guessed from its names.
    assert.equal(isSimulated({ model: 'gpt-test', judge: 'simulated-tfidf', patient: 'simulated-patient' }), false);
  });

  test("judge columns' agents carry their rows' flags; a bare name is an error that says what to pass", () => {
    const rows = [
      { judge: 'simulated-foo', judge_simulated: false },
      { judge: 'gpt-x', judge_simulated: true },
      { judge: null, judge_simulated: null },
      { judge: 'gpt-x', judge_simulated: true },
    ];
    assert.deepEqual(judgeAgents(rows), [
      { name: 'gpt-x', simulated: true },
      { name: 'simulated-foo', simulated: false },
    ]);
    assert.throws(
      () => simulatedNote([], { agents: ['simulated-tfidf'] }),
      /agent "simulated-tfidf" is not \{name, simulated\}.*judgeAgents/,
    );
  });
});

describe('notebook data export', () => {
  test('writes one Arrow IPC file per table holding exactly the warehouse rows; case_scores carries the DTW path of its step scores', async () => {
    const dir = join(tmp, 'export');
    const counts = await exportNotebookData(warehouse, tmp, dir);
    // Hand-counted from the fixture: 2 settings × 2 models × 2 cases × 2 judges + 1 failed judging.
    // Leaderboard: 2 settings × 2 models; no compare without a second run. Judge answers: judge-llm's
    // 8 step judgings × 5 runs, one re-ask, and 7 outcome calls (the empty conclusion needed none; the
    // simulated judges have none). run_settings: cap factor and extra, runs of the 2 judges that scored,
    // the cut-off, λ, τa, τb, γ, β and calibration of those 2 judges, and model_summary's policy and bootstrap.
    assert.deepEqual(counts, {
      model_summary: 34,
      pathway_metrics: 17,
      cases: 8,
      case_scores: 17,
      dialogues: 4,
      outcome_scores: 8,
      predictions: 4,
      judge_answers: 48,
      run_settings: 2 + 2 + 1 + 3 + 3 * 2 + 4,
      leaderboard: 4,
      compare: 0,
    });
    // Each query's file holds exactly the warehouse's rows, typed columns, strings dictionary-encoded.
    const rows = await warehouseRows(warehouse, tmp);
    for (const [name, want] of Object.entries(rows)) assert.deepEqual(readArrow(join(dir, `${name}.arrow`)), want, name);
    const summaryTable = tableFromIPC(readFileSync(join(dir, 'model_summary.arrow')));
    assert.equal(summaryTable.numRows, 34);
    assert.equal(String(summaryTable.schema.fields.find((f) => f.name === 'setting')?.type), 'Dictionary<Int32, Utf8>');
    assert.equal(String(summaryTable.schema.fields.find((f) => f.name === 'mean')?.type), 'Float64');
    assert.equal(readFileSync(join(dir, 'leaderboard.arrow')).subarray(0, 6).toString(), 'ARROW1', 'an Arrow IPC file');
    assert.deepEqual(
      readArrow(join(dir, 'compare_runs.arrow')).map((r) => [r.available, r.a, r.b]),
      [[false, 'A', 'B']],
    );
    const board = readArrow(join(dir, 'leaderboard.arrow')) as unknown as {
      setting: string;
      model: string;
      rank: number;
      judge: string;
      judge_simulated: boolean;
      pcc: { mean: number; n: number; failures: number };
    }[];
    assert.deepEqual(
      board.map((r) => [r.setting, r.model, r.rank, r.pcc.mean, r.pcc.failures, r.judge, r.judge_simulated]),
      [
        ['single', 'gpt-test', 1, 0.5, 1, 'judge-llm', false],
        ['single', 'simulated-oracle', 1, 0.1, 0, 'judge-llm', false],
        ['multi', 'gpt-test', 1, 0.5, 0, 'judge-llm', false],
        ['multi', 'simulated-oracle', 1, 0.1, 0, 'judge-llm', false],
      ],
    );
    // Every row carries its agents' flags: the judge's in model_summary (none for SR), the patient's in dialogues.
    const summary = readArrow(join(dir, 'model_summary.arrow'));
    assert.deepEqual([...new Set(summary.map((r) => `${r.judge} ${r.judge_simulated}`))].sort(), [
      'judge-llm false',
      'null null',
      'simulated-tfidf true',
    ]);
    assert.deepEqual(
      readArrow(join(dir, 'dialogues.arrow')).map((r) => [r.patient, r.patient_simulated]),
      Array(4).fill(['simulated-patient', true]),
    );
    const scores = readArrow(join(dir, 'case_scores.arrow'));
    const gpt = scores.find((r) => r.setting === 'single' && r.model === 'gpt-test' && r.cdp_id === 'cdp-a' && r.judge === 'judge-llm');
    assert.deepEqual(gpt?.dtw_path, [
      [0, 0],
      [1, 1],
      [2, 1],
    ]);
    assert.deepEqual(gpt?.C, [
      [0.9, 0.2],
      [0.2, 0.2],
      [0.2, 0.9],
    ]);
    const failed = scores.find((r) => r.judge === 'simulated-char-ngram');
    assert.equal(failed?.C, null);
    assert.equal(failed?.error, 'only 1 of 5 judge runs usable');
    // The judge answers of one case, joined with the call log in run order, the refused re-ask included.
    const answers = readArrow(join(dir, 'judge_answers.arrow'));
    const one = answers.filter((r) => r.setting === 'single' && r.model === 'gpt-test' && r.cdp_id === 'cdp-b');
    assert.deepEqual(
      one.map((r) => [r.judge, r.judging, r.run, r.answer, r.text, r.rejected]),
      [
        ...[0, 1, 2, 3].map((run) => ['judge-llm', 'steps', run, run + 1, 'R1-C1: 5, R1-C2: 2\nR2-C1: 2, R2-C2: 5', false]),
        ['judge-llm', 'steps', 4, 5, 'R1-C1: 5', true],
        ['judge-llm', 'steps', 4, 6, 'R1-C1: 5, R1-C2: 1', true],
      ],
    );
    assert.equal(one[5]?.rejected_reason, 'run 5: answer 2 rejected: missing R2-C2');
  });

  test("the compare rows carry their model's and judge's flags, as the runs' rows record them", async () => {
    const dir = join(tmp, 'export-compare');
    await exportNotebookData(warehouse, tmp, dir, { compare: { warehouse: baseline, store: tmp } });
    const rows = readArrow(join(dir, 'compare.arrow'));
    assert.deepEqual([...new Set(rows.map((r) => `${r.model} ${r.simulated} ${r.judge} ${r.judge_simulated}`))].sort(), [
      'gpt-test false judge-llm false',
      'gpt-test false simulated-char-ngram true',
      'gpt-test false simulated-tfidf true',
      'simulated-oracle true judge-llm false',
      'simulated-oracle true simulated-tfidf true',
    ]);
  });

  test('a warehouse without the tables is an error naming the table and what to run', async () => {
    const empty = join(tmp, 'empty.duckdb');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    (await DuckDBInstance.create(empty)).closeSync();
    await assert.rejects(exportNotebookData(empty, tmp, join(tmp, 'none')), /notebook data 'model_summary'.*cdp run/s);
  });
});

describe('notebook site in Chromium', () => {
  before(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`the notebook browser test needs Debian's chromium at ${CHROMIUM}; run scripts/install-debian-packages.sh`);
    }
    // Through the command a user runs, pointed at the fixture by CDP_WAREHOUSE.
    siteDir = join(tmp, 'site');
    // With a second run for the compare notebook: the baseline warehouse.
    built = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bin', 'cdp.mjs'), 'notebooks', '--out', siteDir, '--compare', baseline],
      {
        cwd: ROOT,
        env: { ...process.env, CDP_WAREHOUSE: warehouse },
      },
    );
    ({ server, url: baseUrl } = await serveSite(siteDir, 0));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  test('cdp notebooks exports the tables and writes every notebook as a page', () => {
    const pages = ['case-viewer.html', 'compare.html', 'index.html', 'metric-explorer.html', 'overview.html'];
    assert.deepEqual(notebookPages(join(ROOT, 'notebooks')), pages);
    assert.deepEqual(
      built.stdout.trim().split('\n').slice(0, 5),
      pages.map((p) => join(siteDir, p)),
    );
    for (const p of pages) assert.ok(existsSync(join(siteDir, p)), `${p} built`);
    assert.match(built.stderr, /exported model_summary \(34\), pathway_metrics \(17\), cases \(8\), case_scores \(17\), dialogues \(4\)/);
  });

  test('index links to the four notebooks', async () => {
    const o = await open('index.html', 'a[href="./overview.html"]');
    const links = await o.page.$$eval('main a', (as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, ['./overview.html', './metric-explorer.html', './case-viewer.html', './compare.html']);
    await settle(o, 'index.html');
    await o.page.close();
  });

  test('overview: opens with the leaderboard chart, then Table 1 at full width with CIs, n and failures; filters narrow the tables', async () => {
    const o = await open('overview.html', 'table[data-name="model_summary"]');
    const { page } = o;
    await expectRows(page, 'model_summary', 34);
    // The CI level and every setting, as the rows recorded them.
    assert.ok((await page.locator('table[data-name="model_summary"] th').allTextContents()).includes('95% CI'));
    await expectRows(page, 'run_settings', 18);
    assert.deepEqual(
      (await column(page, 'run_settings', 'value')).slice(0, 2),
      ['4', '2'],
      'dialogues_multi first (by stage, then setting): cap_extra 4, cap_factor 2',
    );
    // The leaderboard: per setting gpt-test (real, rank 1) and simulated-oracle ranked apart; a whisker per model.
    await expectRows(page, 'leaderboard', 4);
    assert.deepEqual(await column(page, 'leaderboard', 'rank'), ['1', 'sim 1', '1', 'sim 1']);
    assert.deepEqual(await column(page, 'leaderboard', 'PCC (%) ↓'), [
      '50.00 (40.00–60.00) n=2 · answer 1',
      '10.00 (0.00–20.00) n=2',
      '50.00 (40.00–60.00) n=2',
      '10.00 (0.00–20.00) n=2',
    ]);
    assert.equal(
      await page.locator('[data-name="leaderboard_chart"] g[aria-label="dot"] circle').count(),
      2,
      'one filled dot per real model and setting',
    );
    assert.equal(
      await page.locator('[data-name="leaderboard_chart"] g[aria-label="rule"] line').count(),
      4,
      'a CI whisker per model and setting',
    );
    const chartBox = await page.locator('[data-name="leaderboard_chart"]').boundingBox();
    assert.ok(chartBox && chartBox.y < 900, `the leaderboard chart is on the first screen (top at ${chartBox?.y})`);
    // Table 1 layout: one row per model (real first), judge-llm, cells with CI, n and failures, at full page width.
    await expectRows(page, 'table1', 2);
    assert.deepEqual(await column(page, 'table1', 'model'), ['gpt-test', 'simulated-oracle']);
    assert.deepEqual(await column(page, 'table1', 'single dtw_pcc'), ['50.00 (40.00–60.00) n=2 · answer 1', '10.00 (0.00–20.00) n=2']);
    assert.deepEqual(await column(page, 'table1', 'multi sr'), ['100.00 (100.00–100.00) n=2', '100.00 (100.00–100.00) n=2']);
    const wideBox = await page.locator('.cdp-wide:has(table[data-name="table1"])').boundingBox();
    assert.ok(wideBox && wideBox.width > 1100, `Table 1 spans the page (${wideBox?.width} px of 1280)`);
    // Tables 5–7 layout: 2 settings × 2 models, one column per judge.
    await expectRows(page, 'tables5_7', 4);
    assert.deepEqual(await column(page, 'tables5_7', 'simulated-tfidf'), [
      '50.00 (40.00–60.00) n=2 · answer 1',
      '10.00 (0.00–20.00) n=2',
      '50.00 (40.00–60.00) n=2',
      '10.00 (0.00–20.00) n=2',
    ]);
    assert.match(
      (await page.locator('[data-name="model_summary_note"]').textContent()) ?? '',
      /^25 of 34 rows shown involve simulated agents/,
      '17 simulated-oracle rows and 8 gpt-test rows judged by simulated-tfidf',
    );
    await settle(o, 'overview.html');
    await expectArrowData(o, await expectedRows(['model_summary', 'run_settings', 'leaderboard']));

    await choose(page, 'setting', 'single');
    await expectRows(page, 'model_summary', 16);
    await expectRows(page, 'tables5_7', 2);
    assert.deepEqual(await column(page, 'tables5_7', 'setting'), ['single', 'single']);
    await choose(page, 'metric', 'ot_pcc');
    await page.waitForFunction(
      () => document.querySelector('table[data-name="table1"] thead th:nth-child(2)')?.textContent === 'single ot_pcc',
    );
    assert.deepEqual(await column(page, 'table1', 'single ot_pcc'), ['50.00 (40.00–60.00) n=2 · answer 1', '50.00 (40.00–60.00) n=2']);
    await choose(page, 'metric', 'dtw_pcc');
    await choose(page, 'model', 'gpt-test');
    await expectRows(page, 'model_summary', 2);
    assert.deepEqual(await column(page, 'model_summary', 'mean'), ['0.500', '0.500']);
    await expectRows(page, 'table1', 1);
    assert.deepEqual(await column(page, 'tables5_7', 'judge-llm'), ['50.00 (40.00–60.00) n=2 · answer 1']);
    assert.match(
      (await page.locator('[data-name="model_summary_note"]').textContent()) ?? '',
      /^1 of 2 rows shown involve simulated agents/,
    );
    await choose(page, 'judge', 'judge-llm');
    await expectRows(page, 'model_summary', 1);
    assert.equal(await page.locator('[data-name="model_summary_note"]').textContent(), 'No simulated rows shown.');
    await page.screenshot({ path: join(ARTIFACTS, 'overview-filtered.png'), fullPage: true });
    assert.deepEqual(o.problems, []);
    await page.close();
  });

  test('overview of judges whose names say the opposite of their flags: the notes and the default judge follow the flags', async () => {
    // judge-llm is named "simulated-foo" (a real LLM judge), simulated-tfidf "gpt-x" (a simulated one).
    const dir = join(tmp, 'site-flipped');
    await buildNotebookSite({ root: ROOT, warehouse: flipped, store: tmp, outDir: dir });
    const site = await serveSite(dir, 0);
    try {
      const o = await open('overview.html', 'table[data-name="model_summary"]', site.url);
      const { page } = o;
      const note = async (name: string) => (await page.locator(`[data-name="${name}"]`).textContent()) ?? '';
      const noteBecomes = async (name: string, expected: string) => {
        const redrawn = ([n, t]: string[]) => document.querySelector(`[data-name="${n}"]`)?.textContent === t;
        await page.waitForFunction(redrawn, [name, expected], { timeout: 10_000 }).catch(() => {});
        assert.equal(await note(name), expected);
      };
      await expectRows(page, 'model_summary', 34);
      // The default judge is the real LLM judge, by its flag (by name "gpt-x" would sort first).
      assert.match(await page.locator('table[data-name="leaderboard"] caption').innerText(), /^Leaderboard \(judge simulated-foo\)/);
      // 17 simulated-oracle rows and the 8 gpt-test rows judged by gpt-x; none for "simulated-foo".
      assert.match(await note('model_summary_note'), /^25 of 34 rows shown involve simulated agents/);
      assert.equal(await note('table1_note'), '1 of 2 rows shown involve simulated agents (offline stand-ins, not LLM results).');
      assert.equal(
        await note('tables5_7_note'),
        '2 of 4 rows shown involve simulated agents (offline stand-ins, not LLM results). Simulated judges shown: gpt-x.',
      );
      await settle(o, 'overview-flipped.html');
      await choose(page, 'model', 'gpt-test');
      await choose(page, 'judge', 'gpt-x');
      await expectRows(page, 'model_summary', 8);
      assert.match(await note('model_summary_note'), /^8 of 8 rows shown involve simulated agents/);
      await choose(page, 'judge', 'simulated-foo');
      // Both judges give 8 rows: wait for the notes to be redrawn, not for a row count.
      await noteBecomes('model_summary_note', 'No simulated rows shown.');
      await noteBecomes('table1_note', 'No simulated rows shown.');
      await expectRows(page, 'model_summary', 8);
      assert.deepEqual(o.problems, []);
      await page.close();
    } finally {
      site.server.close();
    }
  });

  test('metric explorer: per-guideline, per-language and per-length breakdowns of the scored rows', async () => {
    const o = await open('metric-explorer.html', 'table[data-name="metric_breakdown"]');
    const { page } = o;
    // The failed judging (g2) is left out: 8 scored rows per guideline; DTW 0.1 (oracle) and 0.5 (gpt-test), 4 each.
    await expectRows(page, 'metric_breakdown', 2);
    assert.deepEqual(await column(page, 'metric_breakdown', 'guideline_id'), ['g1', 'g2']);
    assert.deepEqual(await column(page, 'metric_breakdown', 'n'), ['8', '8']);
    assert.deepEqual(await column(page, 'metric_breakdown', 'mean'), ['0.300', '0.300']);
    // n beside the failures: g2 holds the failed char-ngram judging.
    assert.deepEqual(await column(page, 'metric_breakdown', 'failures'), ['0', '1']);
    // model_summary's rows for DTW PCC: 2 settings × 2 judges × 2 models, gpt-test's single-turn cells with 1 failure.
    await expectRows(page, 'summary_n', 8);
    const summaryRows = await page.$$eval('table[data-name="summary_n"] tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.children, (td) => td.textContent).join('|')),
    );
    assert.ok(summaryRows.includes('single|judge-llm|gpt-test|0.500|0.400–0.600|2|1'), summaryRows.join('\n'));
    assert.ok(summaryRows.includes('multi|judge-llm|gpt-test|0.500|0.400–0.600|2|0'), summaryRows.join('\n'));
    assert.equal((await page.locator('figure svg, svg[class*="plot"]').count()) >= 2, true, 'box plot and histogram drawn');
    // Model × judge: gpt-test's failed char-ngram judging is counted, not averaged.
    await expectRows(page, 'model_judge', 2);
    assert.deepEqual(await column(page, 'model_judge', 'judge-llm'), ['0.500 n=4 f=0', '0.100 n=4 f=0']);
    assert.deepEqual(await column(page, 'model_judge', 'simulated-char-ngram'), ['— n=0 f=1', '—']);
    await settle(o, 'metric-explorer.html');
    await expectArrowData(o, await expectedRows(['pathway_metrics', 'model_summary']));

    await choose(page, 'breakdown', 'model');
    await page.waitForFunction(() => document.querySelector('table[data-name="metric_breakdown"] thead th')?.textContent === 'model');
    assert.deepEqual(await column(page, 'metric_breakdown', 'model'), ['gpt-test', 'simulated-oracle']);
    assert.deepEqual(await column(page, 'metric_breakdown', 'mean'), ['0.500', '0.100']);
    await choose(page, 'breakdown', 'judge');
    await page.waitForFunction(() => document.querySelector('table[data-name="metric_breakdown"] thead th')?.textContent === 'judge');
    assert.deepEqual(await column(page, 'metric_breakdown', 'judge'), ['judge-llm', 'simulated-tfidf']);
    await choose(page, 'breakdown', 'language');
    await page.waitForFunction(() => document.querySelector('table[data-name="metric_breakdown"] thead th')?.textContent === 'language');
    assert.deepEqual(await column(page, 'metric_breakdown', 'language'), ['en', 'zh']);
    await choose(page, 'model', 'gpt-test');
    await page.waitForFunction(
      () => document.querySelector('table[data-name="metric_breakdown"] tbody tr td:nth-child(2)')?.textContent === '4',
    );
    assert.deepEqual(await column(page, 'metric_breakdown', 'n'), ['4', '4']);
    assert.deepEqual(await column(page, 'metric_breakdown', 'mean'), ['0.500', '0.500']);
    await choose(page, 'breakdown', 'm');
    await choose(page, 'metric', 'lnds_pcs');
    await page.waitForFunction(() => document.querySelector('table[data-name="metric_breakdown"] thead th')?.textContent === 'm');
    assert.deepEqual(await column(page, 'metric_breakdown', 'm'), ['2', '3']);
    assert.deepEqual(await column(page, 'metric_breakdown', 'mean'), ['0.500', '0.500']);
    await page.screenshot({ path: join(ARTIFACTS, 'metric-explorer-filtered.png'), fullPage: true });
    assert.deepEqual(o.problems, []);
    await page.close();
  });

  test('case viewer: pathways side by side, heatmap with the DTW path, transcript only for multi-turn', async () => {
    const o = await open('case-viewer.html', 'table[data-name="reference_steps"]');
    const { page } = o;
    // Defaults are the first options: multi, gpt-test, cdp-a, judge-llm.
    await expectRows(page, 'reference_steps', 3);
    await expectRows(page, 'predicted_steps', 2);
    assert.deepEqual(await column(page, 'predicted_steps', 'text'), ['Fever above 38 C?', 'Chest X-ray shows cavities?']);
    // The heatmap is its own cell: wait for it to draw one rect per (reference, predicted) step.
    await page.waitForFunction(() => document.querySelectorAll('g[aria-label="cell"] rect').length === 3 * 2, undefined, { timeout: 5000 });
    assert.equal(await page.locator('g[aria-label="dot"] circle').count(), 3, 'the DTW path has three points');
    assert.equal(await page.locator('g[aria-label="line"] path').count(), 1);
    await expectRows(page, 'transcript', 7);
    assert.match((await page.locator('h3').first().textContent()) ?? '', /patient: simulated-patient/);
    await settle(o, 'case-viewer.html');
    await expectArrowData(o, await expectedRows(['cases', 'case_scores', 'dialogues', 'predictions', 'outcome_scores', 'judge_answers']));

    await chooseUntil(page, 'model', 'simulated-oracle', 'predicted pathway (simulated-oracle)');
    await expectRows(page, 'predicted_steps', 3);
    await page.waitForFunction(() => document.querySelectorAll('g[aria-label="cell"] rect').length === 9, undefined, { timeout: 5000 });
    assert.equal(await page.locator('g[aria-label="dot"] circle').count(), 3);
    assert.match((await page.locator('h2').first().textContent()) ?? '', /simulated-oracle \(simulated\)/);

    await chooseUntil(page, 'setting', 'single', 'Single-turn setting: no dialogue.');
    assert.equal(await rowCount(page, 'transcript'), 0);
    // The model select is re-created for the new setting and keeps the reader's choice.
    await page.waitForFunction(
      () => document.querySelector('h2')?.textContent?.endsWith('simulated-oracle (simulated), single-turn'),
      undefined,
      { timeout: 5000 },
    );
    assert.equal(await page.locator('label[data-name="model"] select').inputValue(), 'simulated-oracle');
    await chooseUntil(page, 'model', 'gpt-test', 'predicted pathway (gpt-test)');
    await chooseUntil(page, 'cdp_id', 'cdp-b', 'cdp-b — gpt-test, single-turn');
    await chooseUntil(page, 'judge', 'simulated-char-ngram', 'no step scores: only 1 of 5 judge runs usable');
    assert.equal(await page.locator('g[aria-label="cell"] rect').count(), 0);
    // Its raw single-turn answer, as written, and every failure of the case with its reason.
    await page.waitForFunction(
      () => document.querySelector('pre[data-name="raw_answer"]')?.textContent === 'I think the patient may have a headache.',
      undefined,
      { timeout: 5000 },
    );
    await expectRows(page, 'case_failures', 4);
    assert.deepEqual(await column(page, 'case_failures', 'reason'), [
      'did not parse: no numbered steps',
      'only 1 of 5 judge runs usable',
      'run 5: answer 1 rejected: missing R2-C2',
      'run 5: answer 2 rejected: missing R2-C2',
    ]);
    // Every judge run's raw answer of the case, as the judge wrote it, and which judges have none stored.
    await expectRows(page, 'judge_answers', 6);
    assert.deepEqual(await column(page, 'judge_answers', 'run'), ['1', '2', '3', '4', '5', '5']);
    assert.deepEqual(await column(page, 'judge_answers', 'text'), [
      ...Array(4).fill('R1-C1: 5, R1-C2: 2\nR2-C1: 2, R2-C2: 5'),
      'R1-C1: 5',
      'R1-C1: 5, R1-C2: 1',
    ]);
    assert.deepEqual((await column(page, 'judge_answers', 'verdict')).slice(3), [
      'accepted',
      'refused: run 5: answer 1 rejected: missing R2-C2',
      'refused: run 5: answer 2 rejected: missing R2-C2',
    ]);
    // Each judging without a stored call says why: the offline judges answer in-process; the real judge
    // scored the empty conclusion without a call (never "offline (simulated)").
    assert.equal(
      await page.locator('p[data-name="judges_without_calls"]').textContent(),
      'No stored calls for simulated-char-ngram, simulated-tfidf: offline (simulated) judges answer in-process, so there is no raw answer to show. ' +
        'judge-llm (outcome): scored without a call: nothing to judge (empty candidate conclusion: scored 1 without a judge call).',
    );
    assert.deepEqual(await column(page, 'outcome_judges', 'correct'), ['no']);
    await page.screenshot({ path: join(ARTIFACTS, 'case-viewer-failed-judging.png'), fullPage: true });
    // Failures only: of gpt-test's single-turn cases only cdp-b failed anywhere.
    await choose(page, 'show', 'failures');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('label[data-name="cdp_id"] option'))
          .map((x) => x.textContent)
          .join() === 'cdp-b',
      undefined,
      { timeout: 5000 },
    );
    assert.deepEqual(o.problems, []);
    await page.close();
  });

  test('case viewer opens the case named in its address', async () => {
    const o = await open(
      'case-viewer.html#setting=single&model=gpt-test&cdp_id=cdp-a&judge=judge-llm',
      'table[data-name="reference_steps"]',
    );
    await o.page.waitForFunction(() => document.querySelector('h2')?.textContent === 'cdp-a — gpt-test, single-turn', undefined, {
      timeout: 5000,
    });
    assert.match((await o.page.locator('pre[data-name="raw_answer"]').textContent()) ?? '', /^Steps:\n1\. Fever above 38 C\?/);
    assert.deepEqual(o.problems, []);
    await o.page.close();
  });

  test('compare: after one param change the difference B − A shows with its CI, and the moved case links into the case viewer', async () => {
    const o = await open('compare.html', 'table[data-name="compare"]');
    const { page } = o;
    assert.match(
      (await page.locator('p[data-name="compare_runs"]').textContent()) ?? '',
      /^A: .*baseline\.duckdb {2}· {2}B: .*warehouse\.duckdb {2}· {2}paired bootstrap: 95% CI, 10000 resamples, seed 42$/,
    );
    // DTW PCC by default: 2 settings × 2 judges × 2 models, and the failed char-ngram judging (no value, one failure in each run).
    await expectRows(page, 'compare', 9);
    await settle(o, 'compare.html');
    await expectArrowData(o, await expectedRows(['compare', 'compare_runs']));
    await choose(page, 'setting', 'single');
    await choose(page, 'judge', 'simulated-char-ngram');
    await expectRows(page, 'compare', 1);
    assert.deepEqual(await column(page, 'compare', 'A'), ['— n=0 · unscored 1']);
    assert.deepEqual(await column(page, 'compare', 'B'), ['— n=0 · unscored 1']);
    await choose(page, 'judge', 'judge-llm');
    await expectRows(page, 'compare', 2);
    await choose(page, 'model', 'gpt-test');
    await expectRows(page, 'compare', 1);
    // A: (0.8 + 0.5) / 2; B: 0.5 on both cases; B − A over the 2 common cases: (−0.3 + 0) / 2, paired CI from resamples {−0.3, −0.15, 0}.
    assert.deepEqual(await column(page, 'compare', 'A'), ['65.00 n=2']);
    assert.deepEqual(await column(page, 'compare', 'B'), ['50.00 n=2']);
    assert.deepEqual(await column(page, 'compare', 'B − A (pp)'), ['-15.00 (-30.00–0.00)']);
    await expectRows(page, 'moved_cases', 1);
    assert.deepEqual(await column(page, 'moved_cases', 'cdp_id'), ['cdp-a']);
    assert.deepEqual(await column(page, 'moved_cases', 'B − A (pp)'), ['-30.00']);
    // The simulated oracle did not move.
    await choose(page, 'model', 'simulated-oracle');
    await page.waitForFunction(
      () => document.querySelector('table[data-name="compare"] tbody tr td:nth-child(7)')?.textContent === '0.00 (0.00–0.00)',
      undefined,
      { timeout: 5000 },
    );
    await expectRows(page, 'moved_cases', 0);
    await choose(page, 'model', 'gpt-test');
    await expectRows(page, 'moved_cases', 1);
    await page.screenshot({ path: join(ARTIFACTS, 'compare-filtered.png'), fullPage: true });
    await page.locator('table[data-name="moved_cases"] a').click();
    await page.waitForFunction(() => document.querySelector('h2')?.textContent === 'cdp-a — gpt-test, single-turn', undefined, {
      timeout: 15000,
    });
    assert.deepEqual(o.problems, []);
    await page.close();
  });
});
