// A server that fails some calls, then recovers, through `cdp` as a user runs it (issue 21 items 3
// and 4): the run ends with the outstanding failures by kind and exit code 3, a no-op rerun says the
// same, the reports mark the model incomplete; after recovery `cdp run --retry-failed` clears every
// server and patient failure, resends no earlier doctor turn, and exits 0. And a run with no test
// case exits 4.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer, type ChatBody, type Fault } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { plainAnswer, promptKind } from './testing/plain-model.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';
import { EXIT } from '../../pipeline/cli/exit-code.ts';

const hash = (b: ChatBody) => createHash('sha256').update(JSON.stringify(b)).digest('hex');
const REASK = /^Your reply could not be read|^无法读取你的回答/;

test('a server fails some calls, then recovers: exit 3 with the outstanding failures, then --retry-failed clears them all and exits 0', async () => {
  // Filled once the test cases are known: which case fails how while the server is down.
  const plan = { down: true, vignettes: new Map<string, string>(), single: new Set<string>(), doctor: new Set<string>(), patient: '' };
  const seedCase = new Map<unknown, string>();
  const answered: { phase: number; body: ChatBody }[] = [];
  let phase = 1;
  const caseOf = (text: string) => [...plan.vignettes].find(([, v]) => text.includes(v))?.[0];
  const fault = (b: ChatBody): Fault | undefined => {
    if (!plan.down) return undefined;
    const kind = promptKind(b);
    const HTTP500: Fault = { kind: 'status', status: 500, message: 'Internal Server Error' };
    if (kind === 'single-turn-inference' && plan.single.has(caseOf(b.messages[0]!.content) ?? '')) return HTTP500;
    // The doctor's second turn (after one question and its answer), for the cases that fail there.
    if (kind === 'multi-turn-inference' && b.messages.length === 3 && plan.doctor.has(seedCase.get(b.seed) ?? '')) return HTTP500;
    return undefined;
  };
  const server = await startFakeOpenAIServer({
    faultFor: (_n, b) => fault(b),
    answer: (b) => {
      answered.push({ phase, body: b });
      if (promptKind(b) === 'multi-turn-patient-environment') {
        const id = caseOf(b.messages[0]!.content);
        if (b.messages.length === 2 && id) seedCase.set(b.seed, id);
        // A patient that cannot say yes or no, asked and re-asked, while the server is down.
        if (plan.down && id === plan.patient) return 'Maybe, I am not sure.';
        if (REASK.test(b.messages.at(-1)!.content)) return 'Yes.';
      }
      return plainAnswer(b, { steps: 2, questions: 2 });
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'cdp-recovery-'));
  try {
    const modelsFile = join(dir, 'models.json');
    const model = (name: string, roles: string[]) => ({ name, baseURL: server.url, model: `org/${name}`, roles, contextWindow: 1_000_000 });
    writeFileSync(
      modelsFile,
      JSON.stringify({ models: [model('my-med-llm', ['evaluated']), model('judge-x', ['judge']), model('patient-x', ['patient'])] }),
    );
    // Options as environment variables: a plain `cdp run` may then be answered by the no-op fast path.
    const env = { CDP_STORE: join(dir, 'store'), CDP_MODELS: modelsFile, CDP_LIMIT: '5', CDP_NO_FAST_PATH: '' };
    const cdp = (args: string[]) => runCdp(args, env);
    const sql = async (q: string) => {
      const r = await cdp(['sql', q, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Record<string, unknown>[];
    };

    // The benchmark is built offline; the test cases and their vignettes decide who fails how.
    const built = await cdp(['run', 'test_cases', 'vignettes']);
    assert.equal(built.code, EXIT.ok, built.stderr);
    assert.equal(server.counters.chat, 0);
    const cases = await sql('select t.cdp_id, v.vignette from test_cases t join vignettes v using (cdp_id) order by t.cdp_id');
    assert.equal(cases.length, 5);
    for (const c of cases) plan.vignettes.set(String(c.cdp_id), String(c.vignette));
    const ids = cases.map((c) => String(c.cdp_id));
    plan.single = new Set([ids[0]!, ids[3]!]);
    plan.doctor = new Set([ids[0]!, ids[1]!]);
    plan.patient = ids[2]!;

    // 1. The server is down for those calls: 2 single-turn and 2 doctor server failures, 1 patient failure.
    const first = await cdp(['run']);
    assert.equal(first.code, EXIT.failuresRemain, first.stderr);
    assert.match(first.stderr, /^ {2}predictions_single: 2 \[server 2\] — 2× my-med-llm: HTTP 500/m);
    assert.match(first.stderr, /^ {2}dialogues_multi: 3 \[patient 1, server 2\]/m);
    assert.match(
      first.stderr,
      /outstanding failures: patient 1, server 4 \(and \d+ failure rows downstream of them\) — retry them with: cdp run --retry-failed\n$/,
    );
    assert.deepEqual(
      await sql(`select model, cdp_id, failure_kind from dialogues_multi where error is not null order by cdp_id`),
      [ids[0]!, ids[1]!, ids[2]!].map((id) => ({
        model: 'my-med-llm',
        cdp_id: id,
        failure_kind: id === plan.patient ? 'patient' : 'server',
      })),
    );
    const ms = await sql(`select setting, server_failures, patient_failures, incomplete from model_summary where metric = 'dtw_pcc'`);
    assert.deepEqual(ms.map((r) => [r.setting, r.server_failures, r.patient_failures, r.incomplete]).sort(), [
      ['multi', 2, 1, true],
      ['single', 2, 0, true],
    ]);
    const board = readFileSync(join(env.CDP_STORE, 'reports', 'tables', 'leaderboard.md'), 'utf8');
    assert.match(board, /\| incomplete 1 \| my-med-llm \(incomplete: 2 server failures — retry with `cdp run --retry-failed`\) \|/);
    assert.match(board, /my-med-llm \(incomplete: 2 server failures, 1 patient failure — retry with `cdp run --retry-failed`\)/);

    // 2. A no-op rerun (the fast path) says where the run stands, and its exit code says so too.
    server.resetCounters();
    const noop = await cdp(['run']);
    assert.equal(noop.code, EXIT.failuresRemain, noop.stderr);
    assert.match(noop.stderr, /nothing changed since the last run/);
    assert.match(noop.stderr, /outstanding failures: patient 1, server 4 .*— retry them with: cdp run --retry-failed\n$/);
    assert.equal(server.counters.chat, 0);

    // 3. The server recovers: --retry-failed clears every failure; the dialogues resume where they failed.
    plan.down = false;
    phase = 3;
    const retried = await cdp(['run', '--retry-failed']);
    assert.equal(retried.code, EXIT.ok, retried.stderr);
    assert.match(retried.stderr, /^--retry-failed: cleared 5 of 5 failures \(patient 1, server 4\); 0 remain$/m);
    assert.doesNotMatch(retried.stderr, /outstanding failures/);
    assert.deepEqual(await sql(`select count(*)::int as n from dialogues_multi where error is not null`), [{ n: 0 }]);
    assert.deepEqual(await sql(`select count(*)::int as n from predictions_single where error is not null`), [{ n: 0 }]);
    const doctor = (p: number) => answered.filter((a) => a.phase === p && promptKind(a.body) === 'multi-turn-inference');
    const before = new Set(doctor(1).map((a) => hash(a.body)));
    const again = doctor(3);
    assert.equal(
      again.filter((a) => before.has(hash(a.body))).length,
      0,
      'no doctor turn answered before is sent again: the replay takes them from the call cache',
    );
    // The two dialogues that failed at the doctor's second turn resume there (turns 2 and 3), and
    // the patient's dialogue after its re-ask (turns 2 and 3): no first turn is asked again.
    assert.deepEqual(again.map((a) => a.body.messages.length).sort(), [3, 3, 3, 5, 5, 5]);
    const patientAgain = answered.filter((a) => a.phase === 3 && promptKind(a.body) === 'multi-turn-patient-environment');
    assert.equal(patientAgain.filter((a) => REASK.test(a.body.messages.at(-1)!.content)).length, 1, 'the refused re-ask is asked afresh');
    const ok = await sql(`select server_failures, patient_failures, incomplete from model_summary where metric = 'dtw_pcc'`);
    assert.ok(ok.every((r) => r.server_failures === 0 && r.patient_failures === 0 && r.incomplete === false));

    // 4. Nothing left: a rerun exits 0 and lists no failure.
    const clean = await cdp(['run']);
    assert.equal(clean.code, EXIT.ok, clean.stderr);
    assert.doesNotMatch(clean.stderr, /outstanding failures/);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a run that leaves no test case says so and exits 4, its no-op rerun too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-no-test-case-'));
  try {
    const env = { CDP_STORE: join(dir, 'store'), CDP_NO_FAST_PATH: '' };
    // No guideline is in the test split.
    const args = ['run', '--set', 'cdps.testFraction=0'];
    const r = await runCdp(args, env);
    assert.equal(r.code, EXIT.nothingToEvaluate, r.stderr);
    assert.match(r.stderr, /^nothing to evaluate: test_cases has no rows: no test case is left to evaluate: /m);
    const noop = await runCdp(args, env);
    assert.equal(noop.code, EXIT.nothingToEvaluate, noop.stderr);
    assert.match(noop.stderr, /nothing changed since the last run\)\n(covered: .*\n)?nothing to evaluate: test_cases has no rows/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
