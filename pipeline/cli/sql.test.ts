// `cdp sql` is read-only: each forbidden statement is refused with its reason and leaves no trace,
// allowed queries over views with absolute and store-relative paths still answer, large results
// stream in bounded memory, and a reader that closes the pipe early ends the command quietly.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { queryWarehouse, SqlRefused, type WarehouseTarget } from './sql.ts';
import { llmCallsRelation } from '../llm/call-log.ts';
import { makeToyProject, type ToyProject } from '../testing/toy-project.ts';

const cdpBin = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cdp.mjs');

function sq(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

interface Fixture extends WarehouseTarget {
  root: string;
  artifact: string;
}

/**
 * A store like the runner's — a Parquet artifact, the run log, an LLM call segment — and a
 * warehouse of views over it, some by absolute path (today's views) and some relative to the
 * store (the new contract); beside the store, files that must stay out of reach.
 */
async function makeFixture(): Promise<Fixture> {
  const root = mkdtempSync(join(tmpdir(), 'cdp-sql-'));
  const store = join(root, 'store');
  const artifact = join(store, 'artifacts', 'numbers.parquet');
  mkdirSync(dirname(artifact), { recursive: true });
  mkdirSync(join(store, 'llm', 'calls'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  const call = (key: string, status: string, error?: string) =>
    JSON.stringify({
      key,
      status,
      model: 'm',
      modelId: 'm-1',
      stage: 'vignettes',
      promptHash: 'p',
      repeat: 0,
      inputTokens: 10,
      outputTokens: 5,
      latencyMs: 1.5,
      attempts: 1,
      ts: '2026-01-02T03:04:05Z',
      error,
      batchId: null,
    });
  const calls = [call('k1', 'ok'), call('k2', 'ok'), call('k3', 'failed', 'timeout')];
  writeFileSync(join(store, 'llm', 'calls', 'seg-000001.jsonl'), calls.join('\n') + '\n');
  writeFileSync(join(store, 'runs.ndjson'), JSON.stringify({ run_id: 'r1', stage: 'numbers', status: 'ran', rows_computed: 3 }) + '\n');
  writeFileSync(join(root, 'outside.csv'), 'secret,value\nkey,42\n');

  const { DuckDBInstance } = await import('@duckdb/node-api');
  const warehouse = join(root, 'warehouse.duckdb');
  const db = await DuckDBInstance.create(warehouse);
  const con = await db.connect();
  const numbers = `select * from (values (1, 'one'), (2, 'two'), (3, 'three')) t(n, word)`;
  await con.run(`copy (${numbers}) to ${sq(artifact)} (format parquet)`);
  await con.run(`copy (${numbers}) to ${sq(join(root, 'elsewhere', 'other.parquet'))} (format parquet)`);
  await con.run(`create view numbers_abs as select * from read_parquet(${sq(artifact)})`);
  await con.run(`create view runs as select * from read_json(${sq(join(store, 'runs.ndjson'))}, format = 'newline_delimited')`);
  await con.run(`create view llm_calls as select * from ${llmCallsRelation(join(store, 'llm'))}`);
  await con.run(`SET file_search_path = ${sq(store)}`);
  await con.run(`create view numbers as select * from read_parquet('artifacts/numbers.parquet')`);
  await con.run(`create view llm_calls_rel as select key, status from read_json('llm/calls/*.jsonl', format = 'newline_delimited')`);
  con.closeSync();
  db.closeSync();
  const other = await DuckDBInstance.create(join(root, 'other.duckdb'));
  const oc = await other.connect();
  await oc.run('create table secrets as select 42 as answer');
  oc.closeSync();
  other.closeSync();
  return { root, store, warehouse, artifact };
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('cdp sql allows read-only queries', () => {
  let f: Fixture;
  before(async () => {
    f = await makeFixture();
  });

  test('views by absolute and by store-relative path, the run log, the LLM call log', async () => {
    const expected = [
      { n: 1, word: 'one' },
      { n: 2, word: 'two' },
      { n: 3, word: 'three' },
    ];
    assert.deepEqual(await queryWarehouse(f, 'select n, word from numbers order by n'), expected);
    assert.deepEqual(await queryWarehouse(f, 'select n, word from numbers_abs order by n'), expected);
    assert.deepEqual(await queryWarehouse(f, 'select stage, rows_computed from runs'), [{ stage: 'numbers', rows_computed: '3' }]);
    assert.deepEqual(await queryWarehouse(f, 'select status, count(*)::int as c from llm_calls group by status order by status'), [
      { status: 'failed', c: 1 },
      { status: 'ok', c: 2 },
    ]);
    assert.deepEqual(await queryWarehouse(f, "select key from llm_calls_rel where status = 'ok' order by key"), [
      { key: 'k1' },
      { key: 'k2' },
    ]);
  });

  test('files under the store by relative and absolute path; the working directory is restored', async () => {
    const cwd = process.cwd();
    assert.deepEqual(await queryWarehouse(f, "select sum(n)::int as s from read_parquet('artifacts/numbers.parquet')"), [{ s: 6 }]);
    assert.deepEqual(await queryWarehouse(f, `select count(*)::int as c from read_parquet(${sq(f.artifact)})`), [{ c: 3 }]);
    const calls = "select count(*)::int as c from read_json('llm/calls/*.jsonl', format = 'newline_delimited')";
    assert.deepEqual(await queryWarehouse(f, calls), [{ c: 3 }]);
    assert.equal(process.cwd(), cwd);
  });

  test('CTEs, DESCRIBE, SUMMARIZE, SHOW TABLES, pragma_table_info(), FROM-first, VALUES and UNION', async () => {
    const cte = 'with big as (select n from numbers where n > 1) select sum(n)::int as s, count(*)::int as c from big';
    assert.deepEqual(await queryWarehouse(f, cte), [{ s: 5, c: 2 }]);
    assert.deepEqual(
      (await queryWarehouse(f, 'describe numbers')).map((r) => [r.column_name, r.column_type]),
      [
        ['n', 'INTEGER'],
        ['word', 'VARCHAR'],
      ],
    );
    const summary = await queryWarehouse(f, 'summarize numbers');
    assert.deepEqual(
      summary.map((r) => [r.column_name, r.min, r.max, String(r.count)]),
      [
        ['n', '1', '3', '3'],
        ['word', 'one', 'two', '3'],
      ],
    );
    assert.deepEqual(
      (await queryWarehouse(f, 'show tables')).map((r) => r.name),
      ['llm_calls', 'llm_calls_rel', 'numbers', 'numbers_abs', 'runs'],
    );
    assert.deepEqual(
      (await queryWarehouse(f, "select name from pragma_table_info('numbers')")).map((r) => r.name),
      ['n', 'word'],
    );
    assert.deepEqual(await queryWarehouse(f, '(select 1 as x) union all (select 2) order by x'), [{ x: 1 }, { x: 2 }]);
    assert.deepEqual(await queryWarehouse(f, 'from numbers select word where n = 2'), [{ word: 'two' }]);
    assert.deepEqual(await queryWarehouse(f, 'values (1, 2)'), [{ col0: 1, col1: 2 }]);
    // With its IN list a PIVOT is one query; without one DuckDB makes it two statements (refused below).
    assert.deepEqual(await queryWarehouse(f, "pivot numbers on word in ('one', 'three') using sum(n)::int"), [{ one: 1, three: 3 }]);
  });

  test('a missing warehouse or a bad query is an error that says what to do', async () => {
    await assert.rejects(
      queryWarehouse({ ...f, warehouse: join(f.root, 'none.duckdb') }, 'select 1'),
      /no warehouse at .*none\.duckdb; run `cdp run` first/,
    );
    await assert.rejects(queryWarehouse(f, 'selec 1'), /^Error: the query does not parse: Parser Error: syntax error at or near "selec"/);
    await assert.rejects(
      queryWarehouse(f, 'select * from nope'),
      /the query failed: Catalog Error: Table with name nope does not exist.*`cdp sql "show tables"` lists them/,
    );
  });
});

describe('cdp sql refuses every statement that writes, escapes the store or changes the session', () => {
  let f: Fixture;
  before(async () => {
    f = await makeFixture();
  });

  const notQuery =
    /^refused: ".+" is not a read-only query\. cdp sql runs one read-only query per call: SELECT .*; COPY, EXPORT, .* are refused\.$/;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const noAccess = (file: string) =>
    new RegExp(
      `^refused: Permission Error: Cannot access file "${escape(file)}" - file system operations are disabled by configuration\\. ` +
        `cdp sql reads only files under the store \\(/.*/store\\) and writes none\\. cdp sql runs one read-only query per call: `,
    );

  // [statement, what its refusal must say, a path that must not exist afterwards]
  const cases = (x: Fixture): [string, RegExp, string?][] => [
    [`copy numbers to ${sq(x.artifact)} (format parquet)`, notQuery],
    [`copy numbers to 'artifacts/copy.parquet' (format parquet)`, notQuery, join(x.store, 'artifacts', 'copy.parquet')],
    [`copy (select 1) to ${sq(join(x.root, 'out.csv'))}`, notQuery, join(x.root, 'out.csv')],
    ["copy (select * from read_text('/etc/passwd')) to 'artifacts/leak.csv'", notQuery, join(x.store, 'artifacts', 'leak.csv')],
    // DuckDB's parser expands it into the statements that copy each object.
    [`copy from database warehouse to memory`, /^the query holds 4 statements/],
    [`export database 'exported'`, notQuery, join(x.store, 'exported')],
    [`export database ${sq(join(x.root, 'exported'))}`, notQuery, join(x.root, 'exported')],
    [`attach 'new.duckdb' as n (READ_WRITE)`, notQuery, join(x.store, 'new.duckdb')],
    [`attach ${sq(join(x.root, 'created.duckdb'))} as n (READ_WRITE)`, notQuery, join(x.root, 'created.duckdb')],
    [`attach ${sq(join(x.root, 'other.duckdb'))} as o (READ_ONLY)`, notQuery],
    ['detach warehouse', notQuery],
    ['install httpfs', notQuery],
    ['load json', notQuery],
    ['update extensions', notQuery],
    ['set threads = 1', notQuery],
    ['set enable_external_access = true', notQuery],
    ['reset lock_configuration', notQuery],
    ['use memory', notQuery],
    ['set variable v = 1', notQuery],
    ['pragma enable_profiling', notQuery],
    [`pragma profiling_output = ${sq(join(x.root, 'profile.json'))}`, notQuery, join(x.root, 'profile.json')],
    ["pragma table_info('numbers')", notQuery],
    [`explain analyze copy numbers to 'artifacts/explained.parquet'`, notQuery, join(x.store, 'artifacts', 'explained.parquet')],
    ['explain select 1', notQuery],
    ['create table t as select 1', notQuery],
    ['create temp table t as select 1', notQuery],
    ['create or replace view numbers as select 0 as n', notQuery],
    ['create macro twice(x) as 2 * x', notQuery],
    ["create secret (type s3, key_id 'k', secret 's')", notQuery],
    ['drop view numbers', notQuery],
    ['alter view numbers rename to gone', notQuery],
    ["insert into numbers values (4, 'four')", notQuery],
    ['update numbers set n = 0', notQuery],
    ['delete from numbers', notQuery],
    ['begin transaction', notQuery],
    ['checkpoint', notQuery],
    ['vacuum', notQuery],
    ['call pragma_version()', notQuery],
    ['prepare p as select 1', notQuery],
    [
      `select 1; copy numbers to 'artifacts/two.parquet' (format parquet)`,
      /^the query holds 2 statements; cdp sql runs one read-only query per call: .*, so run them one at a time\.$/,
      join(x.store, 'artifacts', 'two.parquet'),
    ],
    ['select 1; select 2', /^the query holds 2 statements/],
    ['pivot numbers on word using sum(n)', /^the query holds 2 statements/],
    [' ; -- nothing', /^the query holds no statement\. cdp sql runs one read-only query per call/],
    ["select * from read_text('/etc/passwd')", noAccess('/etc/passwd')],
    ["select * from read_text('/proc/self/environ')", noAccess('/proc/self/environ')],
    [`select * from read_csv(${sq(join(x.root, 'outside.csv'))})`, noAccess(join(x.root, 'outside.csv'))],
    ["select * from read_csv('../outside.csv')", noAccess('../outside.csv')],
    ["select * from read_csv('artifacts/../../outside.csv')", noAccess('artifacts/../../outside.csv')],
    [`select * from read_parquet(${sq(join(x.root, 'elsewhere', 'other.parquet'))})`, noAccess(join(x.root, 'elsewhere', 'other.parquet'))],
    [`select * from read_parquet(${sq(join(x.root, 'elsewhere', '*.parquet'))})`, noAccess(join(x.root, 'elsewhere', '*.parquet'))],
    [`select * from glob(${sq(join(x.root, '*'))})`, noAccess(join(x.root, '*'))],
    // Remote files need httpfs, which is neither loaded nor loadable.
    [
      "select * from read_csv('https://example.com/x.csv')",
      /^the query failed: Missing Extension Error: File https:\/\/example\.com\/x\.csv requires the extension httpfs/,
    ],
  ];

  test('each refusal says what is refused and what is allowed, and nothing is written', async () => {
    const before = sha(f.artifact);
    for (const [sql, message, mustNotExist] of cases(f)) {
      await assert.rejects(queryWarehouse(f, sql), (e: Error) => {
        assert.match(e.message, message, `for: ${sql}`);
        assert.equal(e instanceof SqlRefused, !e.message.startsWith('the query failed'), `for: ${sql}`);
        return true;
      });
      if (mustNotExist) assert.equal(existsSync(mustNotExist), false, `${sql} left ${mustNotExist}`);
    }
    assert.equal(sha(f.artifact), before, 'the artifact changed');
    assert.deepEqual(await queryWarehouse(f, 'select count(*)::int as c from numbers'), [{ c: 3 }]);
  });
});

interface Run {
  code: number | null;
  stderr: string;
  lines: number;
  head: string[];
  tail: string[];
}

/** Runs cdp, counting stdout lines as they arrive and keeping only the first and last few. */
function cdpLines(p: ToyProject, args: string[], nodeArgs: string[] = [], onLine?: (line: string, i: number) => void): Promise<Run> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [...nodeArgs, cdpBin, ...args], { cwd: p.root, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: Run = { code: null, stderr: '', lines: 0, head: [], tail: [] };
    child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()));
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      onLine?.(line, run.lines);
      if (run.head.length < 3) run.head.push(line);
      run.tail.push(line);
      if (run.tail.length > 3) run.tail.shift();
      run.lines++;
    });
    child.on('error', fail);
    child.on('close', (code) => ok({ ...run, code }));
  });
}

describe('cdp sql streams, and cdp sql and cdp status end quietly when the reader goes', () => {
  let p: ToyProject;
  before(() => {
    p = makeToyProject();
    p.writeConfigFile();
    const r = spawnSync(process.execPath, [cdpBin, 'run'], { cwd: p.root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  // 300 000 rows of 200-character strings are 60 MB of text: a 32 MB heap holds them only if
  // the rows pass through a chunk at a time.
  const big = "select range as i, repeat('x', 200) as pad from range(300000)";

  test('a 300 000-row table in a 32 MB heap: widths from the first rows, every row written', async () => {
    const pad = 'x'.repeat(59) + '…';
    const r = await cdpLines(p, ['sql', big], ['--max-old-space-size=32']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines, 300_000 + 3);
    // `i` is as wide as 2047, the widest of the first 2048 rows; later numbers are written whole.
    assert.deepEqual(r.head, ['i     pad', '----  ' + '-'.repeat(60), `0     ${pad}`]);
    assert.deepEqual(r.tail, [`299998  ${pad}`, `299999  ${pad}`, '(300000 rows)']);
  });

  test('a 300 000-row --json array in a 32 MB heap: one row object per line, in order', async () => {
    let bad = 0;
    const r = await cdpLines(p, ['sql', big, '--json'], ['--max-old-space-size=32'], (line, i) => {
      if (i === 0 || i === 300_001) return;
      const row = JSON.parse(line.replace(/,$/, '')) as { i: string; pad: string };
      if (row.i !== String(i - 1) || row.pad.length !== 200) bad++;
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines, 300_000 + 2);
    assert.equal(bad, 0);
    assert.equal(r.head[0], '[');
    assert.deepEqual(r.tail.slice(1), [`{"i":"299999","pad":"${'x'.repeat(200)}"}`, ']']);
  });

  test('empty results and refusals through the command line', async () => {
    const empty = await cdpLines(p, ['sql', 'select * from report where false', '--json']);
    assert.deepEqual([empty.code, empty.head], [0, ['[]']]);
    const table = await cdpLines(p, ['sql', 'select * from report where false']);
    assert.deepEqual([table.code, table.head], [0, ['(no rows)']]);
    const refused = await cdpLines(p, ['sql', "copy report to 'artifacts/x.parquet'"]);
    assert.equal(refused.code, 2);
    assert.equal(refused.lines, 0);
    assert.match(
      refused.stderr,
      /^cdp: refused: "copy report to 'artifacts\/x\.parquet'" is not a read-only query\. cdp sql runs one read-only query/,
    );
  });

  /** Starts cdp, closes its stdout after `keep` lines (0: before it writes), and waits for it. */
  function closedEarly(
    args: string[],
    keep: number,
  ): Promise<{ code: number | null; signal: string | null; stderr: string; got: string[] }> {
    return new Promise((ok, fail) => {
      const child = spawn(process.execPath, [cdpBin, ...args], { cwd: p.root, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      const got: string[] = [];
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      if (keep === 0) child.stdout.destroy();
      else {
        const rl = createInterface({ input: child.stdout });
        rl.on('line', (line) => {
          if (got.length < keep) got.push(line);
          if (got.length === keep) {
            rl.close();
            child.stdout.destroy();
          }
        });
      }
      child.on('error', fail);
      child.on('close', (code, signal) => ok({ code, signal, stderr, got }));
    });
  }

  test('`cdp status | head -1` and `cdp status --json` into a closed pipe: exit 0, nothing on stderr', async () => {
    for (const args of [['status'], ['status', '--json']]) {
      const r = await closedEarly(args, 0);
      assert.deepEqual([r.code, r.signal, r.stderr], [0, null, ''], `cdp ${args.join(' ')}`);
    }
  });

  test('`cdp sql … | head -1` mid-stream, in both formats: exit 0, nothing on stderr', async () => {
    const table = await closedEarly(['sql', 'select * from range(300000)'], 1);
    assert.deepEqual([table.code, table.signal, table.stderr, table.got], [0, null, '', ['range']]);
    const json = await closedEarly(['sql', 'select * from range(300000)', '--json'], 1);
    assert.deepEqual([json.code, json.signal, json.stderr, json.got], [0, null, '', ['[']]);
    const before = await closedEarly(['sql', 'select * from report'], 0);
    assert.deepEqual([before.code, before.signal, before.stderr], [0, null, '']);
  });
});
