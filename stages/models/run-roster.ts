/**
 * Who plays which role in a run, decided once from the command's options — the models file, the
 * `--simulated` switch, one model from CDP_LLM_* — and the presence of the keys the file names,
 * before anything runs:
 *
 *   - evaluated: the file's active evaluated models. With none (the bundled sample offline),
 *     the simulated agents are evaluated instead; with some, the simulated agents run only when
 *     asked (`--simulated`, or `"simulated": true` in the file), as labelled reference rows.
 *   - patient and judges: from the file. With real evaluated models, a missing one is a
 *     problem that stops `cdp run` and says what to add — never a silent stand-in; with
 *     `--simulated` the simulated patient / judges fill in, labelled. Simulated agents are always
 *     talked to by the simulated patient and scored only by the simulated judges, so no real
 *     call is spent on a stand-in.
 *   - builder: the file's builder; without one the trees come from the corpus (DIR/trees, imported)
 *     and the vignettes and narratives from the simulated writers, and the run says so.
 *
 * Problems are collected rather than thrown: `cdp run` and `cdp estimate` refuse to start on
 * them, while `cdp models`, `cdp status` and `cdp dag` still show the configuration.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { configInput, projectPath, type EnvView, type OneModel, type Options } from '../../pipeline/index.ts';
import { envSlug, resolveRoster } from '../../pipeline/llm/roster.ts';
import type { LlmRole, ModelSpec } from '../../pipeline/llm/types.ts';
import { DEFAULT_SIMULATED_EVALUATED, SIMULATED_ROSTER } from '../agents/roster.ts';
import { PATIENT_NAME } from '../agents/offline-patient.ts';
import { curatedBuilderModel } from '../agents/curated-builder.ts';
import { VIGNETTE_GENERATOR } from '../agents/writers/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from '../agents/writers/narrative-writer.ts';
import { SIMULATED_JUDGES, simulatedJudgeSpecs } from '../agents/judges/simulated-judges.ts';
import type { EvaluatedModel, ModelRef } from '../roster/model-ref.ts';
import type { JudgeSpec } from '../roster/judge-spec.ts';
import { judgeSpecs, type JudgeChoice } from './judge-specs.ts';
import { evaluatedModel, refIn } from './model-identity.ts';
import { ENV_SOURCE, modelsFromEnv } from './env-model.ts';
import { embeddingJudgeSpecs } from './embedding-judges.ts';
import { ModelsFileError, parseModelsFile, type ModelsFile, type RunModel } from './models-file.ts';

export interface ModelsSource {
  kind: 'file' | 'env' | 'none';
  /** The file (absolute), or the variables' names. */
  path: string | null;
  /** How it was chosen: --models (or CDP_MODELS, or the store's record), models.json at the project root, CDP_LLM_BASE_URL. */
  via: string;
}

export interface RunModels {
  source: ModelsSource;
  /** The declared models, resolved against the environment (active or not, and why). */
  declared: RunModel[];
  /** What the LLM client knows: declared models, construction stand-ins, simulated agents and judges. */
  roster: ModelSpec[];
  /** The simulated agents and judges run in this configuration. */
  simulated: boolean;
  /** True when the simulated agents stand in for absent evaluated models (the offline sample). */
  offline: boolean;
  /** The construction stages' models (stages/roster/model-ref.ts): the builder, or the offline writers. */
  builder: { trees: ModelRef | null; vignettes: ModelRef; narratives: ModelRef; inspector: ModelRef | null; real: boolean };
  /** Crossed by the task stages: real models first, then simulated ones when they run. */
  evaluated: EvaluatedModel[];
  /** The patient of real models' dialogues; simulated agents always get the simulated patient. */
  patient: ModelRef;
  simulatedPatient: ModelRef;
  /** Every judge of the run, real first (stages/roster/judge-spec.ts); real judges never score a simulated agent. */
  judges: JudgeSpec[];
  /** Refuse to run: each says what to add or change. */
  problems: string[];
  /** Worth knowing (shown by cdp run and cdp models). */
  warnings: string[];
}

export interface RunModelsOptions {
  root: string;
  /** The models file given or remembered by the store; null: models.json at the root when present. */
  models?: string | null;
  /** --simulated: the simulated agents and judges beside real models. */
  simulated?: boolean;
  /** One model in every role (CDP_LLM_BASE_URL, CDP_LLM_MODEL, …). */
  llm?: OneModel | null;
  /** The variables the models file names (keys by presence, endpoints, timeouts). */
  env?: EnvView;
  /** The corpus is the bundled sample: only then is "the benchmark is the bundled one" said. */
  sampleCorpus?: boolean;
  /** Extra models outside the file (e.g. an embedding judge from CDP_EMBED_*). */
  extra?: ModelSpec[];
}

/** The bundled sample's directory: dag.config.ts's corpus when none is given. */
export const BUNDLED_SAMPLE = 'data/sample';

/** The run's models as a command's options decide them (dag.config.ts and `cdp models` alike). */
export function modelsOf(o: Options): RunModels {
  const sampleCorpus = o.corpus !== null && projectPath(o.root, o.corpus) === BUNDLED_SAMPLE;
  const common = { root: o.root, models: o.models, simulated: o.simulated, llm: o.llm, env: o.env };
  return runModels({ ...common, sampleCorpus, extra: embeddingJudgeSpecs(o.env) });
}

/** An environment with nothing set (tests, and callers that give no options). */
export const NO_ENV: EnvView = { get: () => undefined, has: () => false };

/**
 * What resolveRoster reads of the environment, through the options' view: each model's endpoint
 * variable and timeouts by value, its key variable by presence only (a placeholder stands in;
 * the key stays in the environment, read by the client at call time).
 */
export function rosterEnv(models: readonly ModelSpec[], env: EnvView): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const value = (k: string) => {
    const v = env.get(k);
    if (v !== undefined) out[k] = v;
  };
  value('CDP_LLM_TIMEOUT_S');
  for (const m of models) {
    if (m.apiKeyEnv && env.has(m.apiKeyEnv)) out[m.apiKeyEnv] = 'set';
    if (m.baseURLEnv) value(m.baseURLEnv);
    value(`CDP_LLM_TIMEOUT_S_${envSlug(m.name)}`);
  }
  return out;
}

const standIn = (name: string, note: string): ModelSpec => ({ name, roles: ['builder'], provider: 'offline', simulated: true, note });

export const CONSTRUCTION_STAND_INS: ModelSpec[] = [
  curatedBuilderModel(),
  standIn(VIGNETTE_GENERATOR, 'simulated: deterministic vignette writer following Prompt 2 rules (no LLM)'),
  standIn(NARRATIVE_GENERATOR, 'simulated: deterministic narrative writer in Prompt 3 shape (no LLM)'),
];

/** Which models file applies: the one given (or remembered), else models.json at the root, else one model from CDP_LLM_*. */
export function locateModels(
  root: string,
  explicit: string | null = null,
  llm: OneModel | null = null,
): { source: ModelsSource; file: ModelsFile | null; problems: string[] } {
  const problems: string[] = [];
  const atRoot = configInput(join(root, 'models.json'));
  const path = explicit ? configInput(explicit) : existsSync(atRoot) ? atRoot : null;
  const envUrl = llm?.baseURL;
  if (path) {
    const via = explicit ? "--models, CDP_MODELS or the store's record" : 'models.json at the project root';
    const shown = relative(root, path).startsWith('..') ? path : relative(root, path);
    if (envUrl)
      problems.push(`both ${shown} (${via}) and CDP_LLM_BASE_URL are set: declare the model in ${shown}, or unset CDP_LLM_BASE_URL`);
    const source: ModelsSource = { kind: 'file', path, via };
    const unreadable = unreadableModelsFile(path, via);
    if (unreadable) return { source, file: null, problems: [...problems, unreadable] };
    try {
      return { source, file: parseModelsFile(readFileSync(path, 'utf8'), shown), problems };
    } catch (err) {
      if (err instanceof ModelsFileError) return { source, file: null, problems: [...problems, err.message] };
      throw err;
    }
  }
  if (envUrl) {
    try {
      return { source: { kind: 'env', path: ENV_SOURCE, via: 'environment' }, file: modelsFromEnv(llm), problems };
    } catch (err) {
      if (err instanceof ModelsFileError)
        return { source: { kind: 'env', path: ENV_SOURCE, via: 'environment' }, file: null, problems: [err.message] };
      throw err;
    }
  }
  return { source: { kind: 'none', path: null, via: 'no models file: offline stand-ins' }, file: null, problems };
}

/** Why a models file path cannot be read as one (missing, a directory, not readable), or null. */
function unreadableModelsFile(path: string, via: string): string | null {
  let st;
  try {
    st = statSync(path);
  } catch {
    return `models file ${path} does not exist (${via})`;
  }
  if (st.isDirectory()) {
    const inside = existsSync(join(path, 'models.json')) ? `, e.g. ${join(path, 'models.json')}` : '';
    return `models file ${path} is a directory (${via}); give the JSON file itself${inside}`;
  }
  try {
    accessSync(path, constants.R_OK);
  } catch (err) {
    return `models file ${path} cannot be read (${(err as NodeJS.ErrnoException).code}, ${via}); check its permissions`;
  }
  return null;
}

const holders = (models: readonly RunModel[], role: LlmRole) => models.filter((m) => m.roles.includes(role));

export function runModels(opts: RunModelsOptions): RunModels {
  const env = opts.env ?? NO_ENV;
  const located = locateModels(opts.root, opts.models, opts.llm);
  const problems = [...located.problems];
  const warnings: string[] = [];
  const file = located.file;
  const where = file?.file ?? located.source.path ?? 'models.json';
  let declared: RunModel[] = [];
  try {
    const models = file?.models ?? [];
    declared = resolveRoster(models, rosterEnv(models, env)).map((m) => ({ ...(m as RunModel), declaredIn: where }));
  } catch (err) {
    problems.push((err as Error).message); // e.g. a malformed CDP_LLM_TIMEOUT_S
  }
  const active = declared.filter((m) => m.active);
  const simulated = !!opts.simulated || !!file?.simulated;

  for (const m of declared) if (!m.active) warnings.push(`${m.name} is not used: ${m.inactiveReason}`);
  const declaredEvaluated = holders(declared, 'evaluated');
  const realEvaluated = holders(active, 'evaluated').map((m) => m.name);
  if (declaredEvaluated.length && !realEvaluated.length) {
    problems.push(
      `none of the evaluated models in ${where} is usable (${declaredEvaluated.map((m) => `${m.name}: ${m.inactiveReason}`).join('; ')}); fix them, or remove their "evaluated" role to run the simulated agents`,
    );
  }
  const offline = !realEvaluated.length;
  const runSimulated = offline || simulated;

  // Builder
  const builders = holders(active, 'builder');
  if (builders.length > 1)
    warnings.push(`${builders.map((m) => m.name).join(', ')} all have the builder role: ${builders[0].name} builds the benchmark`);
  const builderModel = builders[0]?.name ?? null;
  if (!builderModel && located.source.kind !== 'none') {
    const what = opts.sampleCorpus ? 'the benchmark is the bundled one, built offline' : 'the benchmark is built offline from the corpus';
    warnings.push(
      `no builder in ${where}: ${what} (the corpus's own trees, ${VIGNETTE_GENERATOR}, ${NARRATIVE_GENERATOR}); add "builder" to a model's roles to build it with an LLM`,
    );
  }

  // Patient
  const patients = holders(active, 'patient');
  let patient = PATIENT_NAME;
  if (!offline) {
    if (patients.length) patient = patients[0].name;
    else if (!simulated) {
      problems.push(
        `${where} declares evaluated models (${realEvaluated.join(', ')}) but no patient: add "patient" to the roles of a chat model (it answers the doctor's questions from the case vignette with Prompt 7), or pass --simulated to use ${PATIENT_NAME} (labelled simulated)`,
      );
    }
    if (patients.length > 1)
      warnings.push(`${patients.map((m) => m.name).join(', ')} all have the patient role: ${patients[0].name} plays the patient`);
  }

  // Judges
  const realJudges = offline ? [] : holders(active, 'judge').map((m) => m.name);
  if (offline && holders(active, 'judge').length) {
    warnings.push(
      `${holders(active, 'judge')
        .map((m) => m.name)
        .join(', ')}: a judge with no evaluated model to score is not used (simulated agents are scored by the simulated judges only)`,
    );
  }
  if (!offline && !realJudges.length && !simulated) {
    problems.push(
      `${where} declares evaluated models (${realEvaluated.join(', ')}) but no judge: add "judge" to the roles of a chat model (it scores pathways with Prompts 5, 8 and 9), or pass --simulated to use the simulated similarity judges (labelled simulated)`,
    );
  }
  const extraJudges = (opts.extra ?? []).filter((m) => m.roles.includes('judge') && !offline).map((m) => m.name);
  // A judge's kind is decided here, once: the file's judges are chat LLMs, the extras embedding endpoints.
  const judgeChoices: JudgeChoice[] = [
    ...realJudges.map((name) => ({ name, kind: 'llm' as const })),
    ...extraJudges.map((name) => ({ name, kind: 'embedding' as const })),
    ...(runSimulated ? SIMULATED_JUDGES.map((j) => ({ name: j.name, kind: j.kind })) : []),
  ];

  // One model in several roles.
  for (const m of active) {
    const r = m.roles;
    const ev = r.includes('evaluated') && !offline;
    if (ev && r.includes('judge')) warnings.push(`${m.name} is both judge and evaluated model: it scores its own answers`);
    if (ev && r.includes('patient') && patient === m.name)
      warnings.push(`${m.name} is both patient and evaluated model: it answers its own questions as the patient`);
    if (ev && r.includes('builder') && builderModel === m.name)
      warnings.push(`${m.name} is both builder and evaluated model: it is evaluated on cases it wrote`);
  }

  const simulatedEvaluated = runSimulated ? [...DEFAULT_SIMULATED_EVALUATED] : [];
  const roster = [...declared, ...CONSTRUCTION_STAND_INS, ...SIMULATED_ROSTER, ...simulatedJudgeSpecs(), ...(opts.extra ?? [])];
  const ref = (name: string) => refIn(roster, name);
  const evaluated = [...realEvaluated, ...simulatedEvaluated].map((name) => evaluatedModel(roster.find((m) => m.name === name)!));
  let judges: JudgeSpec[] = [];
  try {
    judges = judgeSpecs(roster, declared, judgeChoices);
  } catch (err) {
    problems.push((err as Error).message); // a judge whose context window leaves no room for a prompt
  }
  return {
    source: located.source,
    declared,
    roster,
    simulated: runSimulated,
    offline,
    builder: {
      // Without a builder, trees come from the corpus (DIR/trees); a guideline without one fails.
      trees: builderModel ? ref(builderModel) : null,
      vignettes: ref(builderModel ?? VIGNETTE_GENERATOR),
      narratives: ref(builderModel ?? NARRATIVE_GENERATOR),
      inspector: builderModel ? ref(builderModel) : null,
      real: !!builderModel,
    },
    evaluated,
    patient: ref(patient),
    simulatedPatient: ref(PATIENT_NAME),
    judges,
    problems,
    warnings,
  };
}
