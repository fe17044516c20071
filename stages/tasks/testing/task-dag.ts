/**
 * Test helpers for the task stages: hand-built construction tables (the agents' fixture: a small
 * English hypertension tree and a Chinese insomnia tree, their CDPs and offline vignettes) as
 * fixed-row stages, and a DAG that runs `predictions_single` and `dialogues_multi` on them the
 * way dag.config.ts is meant to declare them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DagConfig, StageDecl, Row } from '../../../pipeline/dag/define.ts';
import type { LlmClient } from '../../../pipeline/llm/types.ts';
import { resolveDag } from '../../../pipeline/dag/validate.ts';
import { runDag, type RunSummary } from '../../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../../pipeline/exec/workspace.ts';
import { stageRows } from '../../../pipeline/testing/stage-rows.ts';
import { referenceQuestions } from '../../construct/reference-questions.ts';
import type { Cdp } from '../../construct/types.ts';
import { buildFixture, HTN_MARKDOWN, HTN_TREE, INSOMNIA_MARKDOWN, INSOMNIA_TREE } from '../../agents/testing/benchmark-cases.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const TASKS = join(HERE, '..');

export interface TaskData {
  guidelines: Row[];
  trees: Row[];
  cdps: Row[];
  vignettes: Row[];
}

export const HTN_TITLE = 'Hypertension in adults';
export const INSOMNIA_TITLE = '失眠障碍诊断指南';

/**
 * The fixture's tables. `pick(cdp)` says which CDPs to keep and their split (null drops one);
 * by default every CDP is a test CDP.
 */
export function fixtureData(
  pick: (cdp: Cdp, i: number) => 'test' | 'non-test' | null = () => 'test',
): TaskData & { vignetteOf: Map<string, string> } {
  const fx = buildFixture();
  const cdps: Row[] = [];
  [...fx.htn, ...fx.insomnia].forEach((c, i) => {
    const split = pick(c, i);
    if (split !== null) cdps.push({ ...c, split, reference_questions: referenceQuestions(c) });
  });
  const keep = new Set(cdps.map((c) => c.cdp_id));
  const vignettes = [...fx.htn, ...fx.insomnia]
    .filter((c) => keep.has(c.cdp_id))
    .map((c) => ({ cdp_id: c.cdp_id, vignette: fx.vignetteOf(c) }));
  return {
    guidelines: [
      { guideline_id: 'htn', language: 'en', title: HTN_TITLE, markdown: HTN_MARKDOWN },
      { guideline_id: 'insomnia', language: 'zh', title: INSOMNIA_TITLE, markdown: INSOMNIA_MARKDOWN },
    ],
    trees: [
      { guideline_id: 'htn', tree_json: JSON.stringify(HTN_TREE), valid: true },
      { guideline_id: 'insomnia', tree_json: JSON.stringify(INSOMNIA_TREE), valid: true },
    ],
    cdps,
    vignettes,
    vignetteOf: new Map(vignettes.map((v) => [v.cdp_id, v.vignette])),
  };
}

const TASK_INPUTS = { cdps: 'cdps', vignettes: 'vignettes', guidelines: 'guidelines', trees: 'trees' };
const TASK_FOR_EACH = {
  input: 'cdps',
  cross: { param: 'models', as: 'model' },
  join: { vignettes: 'cdp_id', guidelines: 'guideline_id', trees: 'guideline_id' },
};

/** The two task stages as the lead is to declare them, with the given params (null leaves one out). */
export function taskStages(single: Record<string, unknown> | null, multi: Record<string, unknown> | null): StageDecl[] {
  const out: StageDecl[] = [];
  if (single)
    out.push({
      name: 'predictions_single',
      module: join(TASKS, 'predictions-single.stage.ts'),
      inputs: TASK_INPUTS,
      forEach: TASK_FOR_EACH,
      params: single,
      concurrency: 4,
    });
  if (multi)
    out.push({
      name: 'dialogues_multi',
      module: join(TASKS, 'dialogues-multi.stage.ts'),
      inputs: TASK_INPUTS,
      forEach: TASK_FOR_EACH,
      params: multi,
      concurrency: 4,
    });
  return out;
}

export function taskDag(data: TaskData, single: Record<string, unknown> | null, multi: Record<string, unknown> | null): DagConfig {
  const fixed = join(HERE, 'fixed-rows.stage.ts');
  return {
    sources: {},
    stages: [
      { name: 'guidelines', module: fixed, params: { rows: data.guidelines } },
      { name: 'trees', module: fixed, params: { rows: data.trees } },
      { name: 'cdps', module: fixed, params: { rows: data.cdps } },
      { name: 'vignettes', module: fixed, params: { rows: data.vignettes } },
      // The evaluation stages hold imports to the run's test cases: here every CDP of the fixture.
      { name: 'test_cases', module: fixed, params: { rows: data.cdps } },
      ...taskStages(single, multi),
    ],
  };
}

export interface TaskProject {
  root: string;
  run(client: LlmClient, opts?: { retryFailed?: boolean; retryKinds?: string[] }): Promise<RunSummary>;
  rows(stage: string): Row[];
  /** Removes the temporary project. */
  remove(): void;
}

/** A temporary project running `config`; `cacheDir` for the client is `<root>/data/store/llm`. */
export function taskProject(config: DagConfig): TaskProject & { cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'cdp-tasks-'));
  const ws = workspaceFor(root);
  return {
    root,
    cacheDir: join(ws.store, 'llm'),
    async run(client, opts = {}) {
      const dag = await resolveDag(config, root);
      return runDag(dag, ws, { llm: client, retryFailed: opts.retryFailed, retryKinds: opts.retryKinds });
    },
    rows(stage) {
      return stageRows(ws, stage);
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
