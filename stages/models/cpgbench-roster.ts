/**
 * Who plays which role in a CPGBench run, from the same models file (or one-model environment)
 * as MEGA-CDP's (run-roster.ts `locateModels`) and the same roles, decided before anything runs:
 *
 *   - builder: the file's builder answers every construction prompt (1–6) and writes the
 *     conversations (7–9). Without one, recommendations must come with the corpus
 *     (DIR/recommendations/) and simulated-cpg-writer writes the conversations; the run says so.
 *   - evaluated: the file's evaluated models. With none (the bundled sample offline) the three
 *     simulated stand-ins are evaluated; with some, the stand-ins run only with `--simulated`.
 *   - judges: the file's judges score the real models; simulated-cpg-judge scores the stand-ins
 *     (and, with --simulated, the real models too, as a lexical baseline). Real evaluated models
 *     without a judge are a problem that stops the run, unless --simulated.
 *   - patient: CPGBench has no patient (the conversations are written beforehand); a model whose
 *     only role is patient is not used, and the run says so.
 */
import type { EnvView, OneModel, Options } from '../../pipeline/index.ts';
import { resolveRoster } from '../../pipeline/llm/roster.ts';
import type { LlmRole, ModelSpec } from '../../pipeline/llm/types.ts';
import type { EvaluatedModel, ModelRef } from '../roster/model-ref.ts';
import { CPG_EVALUATED, CPG_JUDGE_NAME, CPG_SIMULATED_ROSTER, CPG_WRITER_NAME } from '../agents/cpgbench/roster.ts';
import type { RunModel } from './models-file.ts';
import { evaluatedModel, modelRef } from './model-identity.ts';
import { locateModels, rosterEnv, NO_ENV, type ModelsSource } from './run-roster.ts';

/** The roles as the stages receive them: roster values (stages/roster/model-ref.ts), with names for messages. */
export interface CpgRunModels {
  source: ModelsSource;
  declared: RunModel[];
  roster: ModelSpec[];
  offline: boolean;
  builder: ModelRef | null;
  writer: ModelRef;
  /** Crossed by both tasks: real models first, then the stand-ins when they run. */
  evaluated: EvaluatedModel[];
  /** Crossed by the judgement stages: real judges first, then the simulated judge when it runs. */
  judges: ModelRef[];
  paperNames: Record<string, string>;
  problems: string[];
  warnings: string[];
}

const holders = (models: readonly RunModel[], role: LlmRole) => models.filter((m) => m.roles.includes(role)).map((m) => m.name);

export interface CpgRunModelsOptions {
  root: string;
  /** The models file given or remembered by the store; null: models.json at the root when present. */
  models?: string | null;
  /** --simulated: the stand-ins beside real models. */
  simulated?: boolean;
  /** One model in every role (CDP_LLM_BASE_URL, CDP_LLM_MODEL, …). */
  llm?: OneModel | null;
  /** The variables the models file names (keys by presence, endpoints, timeouts). */
  env?: EnvView;
}

/** The run's CPGBench models as a command's options decide them (cpgbench.config.ts). */
export function cpgModelsOf(o: Options): CpgRunModels {
  return cpgRunModels({ root: o.root, models: o.models, simulated: o.simulated, llm: o.llm, env: o.env });
}

export function cpgRunModels(opts: CpgRunModelsOptions): CpgRunModels {
  const env = opts.env ?? NO_ENV;
  const located = locateModels(opts.root, opts.models, opts.llm);
  const problems = [...located.problems];
  const warnings: string[] = [];
  const where = located.file?.file ?? located.source.path ?? 'models.json';
  let declared: RunModel[] = [];
  try {
    const models = located.file?.models ?? [];
    declared = resolveRoster(models, rosterEnv(models, env)).map((m) => ({ ...(m as RunModel), declaredIn: where }));
  } catch (err) {
    problems.push((err as Error).message);
  }
  for (const m of declared) if (!m.active) warnings.push(`${m.name} is not used: ${m.inactiveReason}`);
  const active = declared.filter((m) => m.active);
  const realEvaluated = holders(active, 'evaluated');
  if (holders(declared, 'evaluated').length && !realEvaluated.length)
    problems.push(
      `none of the evaluated models in ${where} is usable; fix them, or remove their "evaluated" role to run the simulated stand-ins`,
    );
  const offline = realEvaluated.length === 0;
  const simulated = offline || !!opts.simulated || !!located.file?.simulated;
  const builders = holders(active, 'builder');
  if (builders.length > 1) warnings.push(`${builders.join(', ')} all have the builder role: ${builders[0]} builds the benchmark`);
  const builder = builders[0] ?? null;
  if (!builder && located.source.kind !== 'none')
    warnings.push(
      `no builder in ${where}: CPGBench's recommendations must come with the corpus (DIR/recommendations/) and ${CPG_WRITER_NAME} writes the conversations; add "builder" to a model's roles to build it with an LLM`,
    );
  const realJudges = offline ? [] : holders(active, 'judge');
  if (!offline && !realJudges.length && !simulated)
    problems.push(
      `${where} declares evaluated models (${realEvaluated.join(', ')}) but no judge: add "judge" to the roles of a chat model (it answers Prompts 12–14), or pass --simulated to use ${CPG_JUDGE_NAME} (labelled simulated)`,
    );
  for (const m of active)
    if (m.roles.length === 1 && m.roles[0] === 'patient') warnings.push(`${m.name} plays only the patient, which CPGBench does not use`);
  for (const m of active) {
    if (!offline && m.roles.includes('evaluated') && m.roles.includes('judge'))
      warnings.push(`${m.name} is both judge and evaluated model: it scores its own answers`);
    if (!offline && m.roles.includes('evaluated') && builder === m.name)
      warnings.push(`${m.name} is both builder and evaluated model: it is evaluated on conversations it wrote`);
  }
  const roster: ModelSpec[] = [...declared, ...CPG_SIMULATED_ROSTER];
  const spec = (name: string) => roster.find((m) => m.name === name)!;
  const evaluated = [...realEvaluated, ...(simulated ? CPG_EVALUATED : [])].map((n) => evaluatedModel(spec(n) as RunModel));
  return {
    source: located.source,
    declared,
    roster,
    offline,
    builder: builder ? modelRef(spec(builder)) : null,
    writer: modelRef(spec(builder ?? CPG_WRITER_NAME)),
    evaluated,
    judges: [...realJudges, ...(simulated ? [CPG_JUDGE_NAME] : [])].map((n) => modelRef(spec(n))),
    paperNames: Object.fromEntries(declared.filter((m) => m.paper).map((m) => [m.name, m.paper!])),
    problems,
    warnings,
  };
}
