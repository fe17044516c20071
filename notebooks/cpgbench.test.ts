/**
 * CPGBench's notebooks built from a real offline run of its DAG on the bundled sample (through
 * `cdp --config cpgbench.config.ts notebooks`) and opened in headless Chromium: the overview shows
 * the leaderboard and the rates by group, the case viewer one recommendation's conversation with
 * its marked turn, both tasks' answers and every judgement; nothing leaves 127.0.0.1.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { serveSite } from './serve-site.ts';
import { cpgProject, REPO, type CpgProject } from '../stages/cpgbench/testing/cpgbench-project.ts';
import { CPG_NOTEBOOK_DATA } from './cpgbench-data.ts';
import { openWarehouse } from '../pipeline/store/warehouse.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPO, 'test-artifacts', 'notebooks-cpgbench');
let project: CpgProject;
let server: Server;
let baseUrl = '';
let browser: Browser;

before(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`the notebook browser test needs Debian's chromium at ${CHROMIUM}; run scripts/install-debian-packages.sh`);
  project = cpgProject();
  assert.equal((await project.run()).ok, true);
  const site = join(project.dir, 'site');
  await promisify(execFile)(
    process.execPath,
    [join(REPO, 'bin', 'cdp.mjs'), '--config', 'cpgbench.config.ts', 'notebooks', '--out', site],
    {
      cwd: REPO,
      env: { ...process.env, CDP_WAREHOUSE: join(project.dir, 'warehouse.duckdb'), CDP_STORE: join(project.dir, 'store') },
    },
  );
  ({ server, url: baseUrl } = await serveSite(site, 0));
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
  project?.remove();
});

async function open(name: string, ready: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => void (m.type() === 'error' && problems.push(`console error: ${m.text()}`)));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(baseUrl) || url.startsWith('data:')) return route.continue();
    problems.push(`request outside the site: ${url}`);
    return route.abort();
  });
  await page.goto(baseUrl + name);
  await page.waitForSelector(ready, { timeout: 15000 });
  return { page, problems, requests };
}

/** The page fetched no JSON, and each table's Arrow file gave it as many rows as the run's warehouse holds. */
async function expectArrowData(o: { page: Page; requests: string[] }, tables: Record<string, number | null>): Promise<void> {
  assert.deepEqual(
    o.requests.filter((u) => /\.json($|\?)/.test(u)),
    [],
    'no JSON requested',
  );
  const w = await openWarehouse(join(project.dir, 'warehouse.duckdb'), join(project.dir, 'store'), { readOnly: true });
  const want: Record<string, number> = {};
  try {
    for (const [t, n] of Object.entries(tables))
      want[t] =
        n ??
        ((await w.con.runAndReadAll(`select count(*)::integer as n from (${CPG_NOTEBOOK_DATA[t]!})`)).getRowObjectsJson()[0]!.n as number);
  } finally {
    w.close();
  }
  const loaded = (await o.page.evaluate(() => (globalThis as { cdpLoadedData?: unknown }).cdpLoadedData)) as {
    name: string;
    format: string;
    rows: number;
  }[];
  assert.deepEqual(Object.fromEntries(loaded.map((l) => [l.name, l.rows])), want);
  assert.ok(loaded.every((l) => l.format === 'arrow'));
}

const rows = (page: Page, table: string) => page.locator(`table[data-name="${table}"] tbody tr`).count();
const column = (page: Page, table: string, label: string) =>
  page.$$eval(
    `table[data-name="${table}"]`,
    ([t], l) => {
      const i = Array.from(t.querySelectorAll('thead th')).findIndex((th) => th.textContent === l);
      return Array.from(t.querySelectorAll('tbody tr')).map((tr) => tr.children[i]?.textContent ?? '');
    },
    label,
  );

async function settled(o: { page: Page; problems: string[] }, name: string) {
  await o.page.waitForLoadState('networkidle');
  const cellErrors = await o.page.$$eval('.observablehq--error', (es) => es.map((e) => e.textContent ?? ''));
  await o.page.screenshot({ path: join(ARTIFACTS, name.replace('.html', '.png')), fullPage: true });
  assert.deepEqual([...o.problems, ...cellErrors], [], `${name} rendered with problems`);
}

test('the overview: the leaderboard of the three stand-ins, the rates by group, the construction counts', async () => {
  const o = await open('overview.html', 'table[data-name="leaderboard"]');
  assert.equal(await rows(o.page, 'leaderboard'), 3);
  assert.deepEqual(await column(o.page, 'leaderboard', 'model'), [
    'simulated-cpg-oracle',
    'simulated-cpg-every-other',
    'simulated-cpg-no-titles',
  ]);
  const adherence = await column(o.page, 'leaderboard', 'adherence');
  assert.match(adherence[1]!, /^50\.00 \(\d+\.\d\d–\d+\.\d\d\) n=10$/);
  await o.page.waitForSelector('table[data-name="rates_by_group"]');
  assert.equal(await rows(o.page, 'rates_by_group'), 3, 'overall: one row per model');
  assert.ok((await column(o.page, 'construction', 'step')).includes('benchmark items'));
  assert.match((await o.page.textContent('.cdp-simulated-note')) ?? '', /simulated/);
  await settled(o, 'overview.html');
  // The leaderboard is computed from the rates (one row per model, as the table shows).
  await expectArrowData(o, { rates: null, leaderboard: 3, construction: null });
});

test('the case viewer: the conversation with its marked turn, the detection input, both answers and each judgement', async () => {
  const o = await open(
    'case-viewer.html#recommendation_id=de-2020-hypertonie%232&model=simulated-cpg-every-other',
    'table[data-name="conversation"]',
  );
  await o.page.waitForFunction(() => (document.body.textContent ?? '').includes('de-2020-hypertonie#2'));
  assert.equal(await rows(o.page, 'conversation'), 7);
  assert.deepEqual((await column(o.page, 'conversation', 'marked'))[4], 'first marked turn');
  assert.deepEqual(await column(o.page, 'conversation', 'task'), [
    'adherence input',
    'adherence input',
    'adherence input',
    'adherence input',
    '',
    '',
    '',
  ]);
  const detection = await column(o.page, 'detection_input', 'content');
  assert.ok(
    detection.every((c) => !c.includes('<recommendation')),
    'the detection input has no marker',
  );
  assert.match(
    (await o.page.textContent('pre[data-name="detection_answer"]')) ?? '',
    /Guideline title: Arterielle Hypertonie im Erwachsenenalter/,
  );
  assert.match((await o.page.textContent('pre[data-name="adherence_answer"]')) ?? '', /Kochsalzzufuhr/);
  assert.deepEqual((await column(o.page, 'judgements', 'task')).sort(), ['adherence', 'content_detection', 'title_grounding']);
  assert.deepEqual(await column(o.page, 'judgements', 'score'), ['1', '1', '1'], 'the even-numbered recommendation: adhered');
  await settled(o, 'case-viewer.html');
  await expectArrowData(o, { items: null, answers: null, judgements: null, failures: null });
});
