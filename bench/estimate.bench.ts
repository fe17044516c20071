// `cdp estimate` on a fresh store against the run it predicts: two evaluated models, a judge and a
// patient from a models file on a local OpenAI-compatible server (127.0.0.1), then `cdp run` on the
// same store. The server's models answer in the required formats without knowing the case
// (stages/models/testing/plain-model.ts): one asks 5 questions and writes 5 steps, the other 9,
// around the sample's reference lengths (6–11), so the dialogues are neither the stand-ins' nor
// trivially short. Requests are counted at the server; input tokens are the o200k_base counts of
// the request bodies the server received, with the client's per-message overhead.
import { mkdtempSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchReport, BenchRow } from './report.ts';
import { startFakeOpenAIServer } from '../pipeline/llm/testing/fake-openai-server.ts';
import { countTokens, TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from '../pipeline/llm/tokens.ts';
import { plainAnswer, promptKind } from '../stages/models/testing/plain-model.ts';
import { runCdp } from '../pipeline/testing/cdp-process.ts';

const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, env);

const STYLES: Record<string, { steps: number; questions: number }> = {
  'org/short-doctor': { steps: 5, questions: 5 },
  'org/long-doctor': { steps: 9, questions: 9 },
};
const within = (ratio: number) => ratio >= 1 / 1.5 && ratio <= 1.5;

export default async function (): Promise<BenchReport> {
  const server = await startFakeOpenAIServer({ answer: (b) => plainAnswer(b, STYLES[b.model] ?? { steps: 2, questions: 2 }) });
  const dir = mkdtempSync(join(tmpdir(), 'cdp-bench-estimate-'));
  try {
    const model = (name: string, id: string, roles: string[]) => ({
      name,
      baseURL: server.url,
      model: id,
      roles,
      contextWindow: 1_000_000,
      price: { inputPerMTok: 0.1, outputPerMTok: 0.4 },
    });
    const modelsFile = join(dir, 'models.json');
    writeFileSync(
      modelsFile,
      JSON.stringify({
        models: [
          model('short-doctor', 'org/short-doctor', ['evaluated']),
          model('long-doctor', 'org/long-doctor', ['evaluated']),
          model('judge', 'org/judge', ['judge']),
          model('patient', 'org/patient', ['patient']),
        ],
      }),
    );
    const env = { CDP_STORE: join(dir, 'store'), CDP_LLM_CACHE: join(dir, 'llm-cache'), CDP_NO_FAST_PATH: '1' };
    const est = await cdp(['estimate', '--models', modelsFile, '--json'], env);
    if (est.code !== 0) throw new Error(`cdp estimate failed: ${est.stderr}`);
    if (existsSync(join(dir, 'store'))) throw new Error('cdp estimate wrote the store');
    const estimate = JSON.parse(est.stdout) as {
      stages: { stage: string; requests: number; inputTokens: number }[];
      total: { requests: number; inputTokens: number; cost: number };
    };

    const run = await cdp(['run', '--models', modelsFile], env);
    if (run.code !== 0) throw new Error(`cdp run failed: ${run.stderr}`);
    const STAGE_OF: Record<string, string> = {
      'single-turn-inference': 'predictions_single',
      'multi-turn-inference': 'dialogues_multi',
      'multi-turn-patient-environment': 'dialogues_multi',
      'single-turn-step-level-consistency-scoring': 'step_scores',
      'multi-turn-step-level-consistency-scoring': 'step_scores',
      'outcome-accuracy-scoring': 'outcome_scores',
    };
    const actual = new Map<string, { requests: number; inputTokens: number }>();
    for (const b of server.requests) {
      const stage = STAGE_OF[promptKind(b)] ?? 'other';
      const a = actual.get(stage) ?? { requests: 0, inputTokens: 0 };
      a.requests++;
      a.inputTokens += TOKENS_PER_REPLY + b.messages.reduce((n, m) => n + TOKENS_PER_MESSAGE + countTokens(m.content), 0);
      actual.set(stage, a);
    }
    const total = [...actual.values()].reduce(
      (t, a) => ({ requests: t.requests + a.requests, inputTokens: t.inputTokens + a.inputTokens }),
      { requests: 0, inputTokens: 0 },
    );
    const rows: BenchRow[] = [];
    const ratioRows = (
      name: string,
      e: { requests: number; inputTokens: number },
      a: { requests: number; inputTokens: number },
      target: boolean,
    ) => {
      rows.push({
        name: `${name}: requests`,
        value: e.requests,
        unit: 'requests',
        reference: { name: 'cdp run (server count)', value: a.requests },
        ...(target ? { target: { text: 'ratio within 1/1.5 – 1.5', met: within(e.requests / a.requests) } } : {}),
      });
      rows.push({
        name: `${name}: input tokens`,
        value: e.inputTokens,
        unit: 'tokens',
        reference: { name: 'cdp run (request bodies)', value: a.inputTokens },
        ...(target ? { target: { text: 'ratio within 1/1.5 – 1.5', met: within(e.inputTokens / a.inputTokens) } } : {}),
      });
    };
    ratioRows('whole DAG', estimate.total, total, true);
    for (const s of estimate.stages) ratioRows(s.stage, s, actual.get(s.stage) ?? { requests: 0, inputTokens: 0 }, false);
    return {
      title: 'cdp estimate against the run it predicts (fresh store, local server)',
      rows,
      notes: [
        'Models file: two evaluated models (5 and 9 questions / steps), a judge and a patient on one local server; the benchmark is built offline (no builder), so the LLM stages are both settings, the patient and the judges.',
        `Estimated cost at the declared prices (0.1 / 0.4 USD per MTok): ${estimate.total.cost.toFixed(2)} USD. The estimate answers with simulated stand-ins (a simulated agent per evaluated model), so its dialogues are as long as the agents' (the reference length + 1); the run's are the server models'.`,
      ],
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
