/**
 * Who plays which role in a run, decided once from the models file (or the one-model
 * environment variables) and the `--simulated` switch, before anything runs:
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
import { join, relative, resolve } from 'node:path';
import { configInput } from '../../pipeline/index.ts';
import { resolveRoster } from '../../pipeline/llm/roster.ts';
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
import { ModelsFileError, parseModelsFile, type ModelsFile, type RunModel } from './models-file.ts';

export interface ModelsSource {
  kind: 'file' | 'env' | 'none';
  /** The file (absolute), or the variables' names. */
  path: string | null;
  /** How it was chosen: --models / CDP_MODELS, models.json at the project root, CDP_LLM_BASE_URL. */
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
  env?: NodeJS.ProcessEnv;
  /** Extra models outside the file (e.g. an embedding judge from CDP_EMBED_*). */
  extra?: ModelSpec[];
}

const standIn = (name: string, note: string): ModelSpec => ({ name, roles: ['builder'], provider: 'offline', simulated: true, note });

export const CONSTRUCTION_STAND_INS: ModelSpec[] = [
  curatedBuilderModel(),
  standIn(VIGNETTE_GENERATOR, 'simulated: deterministic vignette writer following Prompt 2 rules (no LLM)'),
  standIn(NARRATIVE_GENERATOR, 'simulated: deterministic narrative writer in Prompt 3 shape (no LLM)'),
];

const truthy = (v: string | undefined) => !!v && !/^(0|false|no|off)$/i.test(v.trim());

/** Which models file applies: --models (CDP_MODELS), else models.json at the root, else the environment. */
export function locateModels(root: string, env: NodeJS.ProcessEnv): { source: ModelsSource; file: ModelsFile | null; problems: string[] } {
  const problems: string[] = [];
  const explicit = env.CDP_MODELS?.trim();
  const atRoot = configInput(join(root, 'models.json'));
  const path = explicit ? configInput(resolve(explicit)) : existsSync(atRoot) ? atRoot : null;
  const envUrl = env.CDP_LLM_BASE_URL?.trim();
  if (path) {
    const via = explicit ? '--models / CDP_MODELS' : 'models.json at the project root';
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
      return { source: { kind: 'env', path: ENV_SOURCE, via: 'environment' }, file: modelsFromEnv(env), problems };
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
  const env = opts.env ?? process.env;
  const located = locateModels(opts.root, env);
  const problems = [...located.problems];
  const warnings: string[] = [];
  const file = located.file;
  const where = file?.file ?? located.source.path ?? 'models.json';
  let declared: RunModel[] = [];
  try {
    declared = resolveRoster(file?.models ?? [], env).map((m) => ({ ...(m as RunModel), declaredIn: where }));
  } catch (err) {
    problems.push((err as Error).message); // e.g. a malformed CDP_LLM_TIMEOUT_S
  }
  const active = declared.filter((m) => m.active);
  const simulated = truthy(env.CDP_SIMULATED) || !!file?.simulated;

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
    warnings.push(
      `no builder in ${where}: the benchmark is the bundled one, built offline (the corpus's own trees, ${VIGNETTE_GENERATOR}, ${NARRATIVE_GENERATOR}); add "builder" to a model's roles to build it with an LLM`,
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
