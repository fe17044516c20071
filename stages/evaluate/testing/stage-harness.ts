/**
 * Test support for the evaluation stages: a fake stage context, a scripted chat client, and
 * benchmark rows for a small hand-built case set (the agents' hypertension fixture) with the
 * perturbation agents' true plans, so stage tests need neither a runner nor a model.
 */
import { resolve } from 'node:path';
import { missingLlm, resolveParams, stageInputs, type Row, type StageContext, type StageLlm } from '../../../pipeline/stage.ts';
import type { ChatRequest, ChatResult } from '../../../pipeline/llm/types.ts';
import type { RowStage, TableStage } from '../../../pipeline/stage.ts';
import type { Cdp, ReasoningTree } from '../../construct/types.ts';
import { planCase, questionsOf } from '../../agents/perturbation-agent.ts';
import { profileFromName } from '../../agents/perturbation-profile.ts';

// A test client needs only the methods the stage calls, hence the cast.
export function fakeCtx<P>(params: P, llm: unknown = undefined, logs: string[] = [], root = process.cwd()): StageContext<P> {
  const client = (llm ?? missingLlm('test')) as StageLlm;
  // Test rows name files as a source without a base does: relative to the root.
  const file = (path: string) => resolve(root, path);
  return { stage: 'test', params, root, file, llm: client, log: (m) => logs.push(m), signal: new AbortController().signal, persist: true };
}

/** The params the runner would pass: the stage's declared defaults under the test's values. */
export function withDefaults<P>(stage: TableStage<P> | RowStage<P>, params: Partial<P>): P {
  const r = resolveParams('test', stage.params as Record<string, unknown> | undefined, params as Record<string, unknown>);
  return r.params as P;
}

/** Runs a table stage as the runner would: every required input given, an optional one not given as []. */
export async function runTable<P>(
  stage: TableStage<P>,
  inputs: Record<string, Row[]>,
  params: Partial<P>,
  logs: string[] = [],
  root?: string,
): Promise<Row[]> {
  return stage.run(stageInputs('test', stage.inputs, inputs), fakeCtx(withDefaults(stage, params), undefined, logs, root));
}

export async function runRows<P>(
  stage: RowStage<P>,
  rows: readonly Row[],
  params: Partial<P>,
  cross?: unknown,
  llm?: unknown,
): Promise<Row[]> {
  const out: Row[] = [];
  for (const row of rows) {
    const r = await stage.run({ row, cross, joined: {}, whole: {} }, fakeCtx(withDefaults(stage, params), llm));
    out.push(...(Array.isArray(r) ? r : [r]));
  }
  return out;
}

/** A chat client answering from a script; keeps every request. */
export function scriptedClient(script: (req: ChatRequest, prompt: string) => string) {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async chat(req: ChatRequest): Promise<ChatResult> {
      requests.push(req);
      const text = script(req, String(req.messages[0]!.content));
      return { ok: true, text, cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
  };
}

export function cdpRow(c: Cdp): Row {
  return { ...c, reference_questions: c.steps.map((s) => `Q: ${s.condition}`) } as unknown as Row;
}

export function treeRow(guideline_id: string, tree: ReasoningTree): Row {
  return { guideline_id, tree_json: JSON.stringify(tree), valid: true };
}

/** A predicted_pathways row that is exactly agent `model`'s plan on `cdp` in `setting`. */
export function planPathway(model: string, cdp: Cdp, tree: ReasoningTree, setting: 'single' | 'multi'): Row {
  const plan = planCase(profileFromName(model), cdp, tree);
  return {
    setting,
    model,
    cdp_id: cdp.cdp_id,
    guideline_id: cdp.guideline_id,
    language: cdp.language,
    reference: setting === 'single' ? cdp.steps.map((s) => s.condition) : cdp.steps.map((s) => `Q: ${s.condition}`),
    candidate: setting === 'single' ? plan.steps : questionsOf(plan),
    reference_conclusion: cdp.conclusion,
    candidate_outcome: plan.conclusion,
    success: setting === 'multi' ? true : null,
    simulated: true,
    usable: true,
    reason: null,
  };
}
