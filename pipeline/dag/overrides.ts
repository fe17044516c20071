/**
 * Param overrides from the command line, DVC's `exp run -S`: `cdp run --set <stage>.<param>=<value>`
 * (repeatable; the value is JSON when it parses as JSON, else the string itself). An override
 * replaces the param's value in the config's declaration before validation, so it is checked like
 * the config (an unknown stage or param stops the run and names the known ones) and keys the stage
 * exactly as the same value written in dag.config.ts would: the two share their store entries.
 */
import type { DagConfig } from './define.ts';
import { closestName } from './params.ts';

export interface ParamOverride {
  stage: string;
  param: string;
  value: unknown;
  /** As given on the command line, for messages and the no-op fingerprint. */
  text: string;
}

const EXAMPLE = 'e.g. --set outcome_scores.cutoff=3 or --set step_scores.runs=3';

/** `<stage>.<param>=<value>` → the override; throws naming the argument and the expected form. */
export function parseOverride(text: string): ParamOverride {
  const eq = text.indexOf('=');
  const target = eq < 0 ? text : text.slice(0, eq);
  const dot = target.indexOf('.');
  if (eq < 0 || dot <= 0 || dot === target.length - 1) {
    throw new Error(`--set "${text}": expected <stage>.<param>=<value>, ${EXAMPLE}`);
  }
  const stage = target.slice(0, dot);
  const param = target.slice(dot + 1);
  if (param.includes('.')) {
    throw new Error(
      `--set "${text}": '${param}' is not a param name (params are set whole: give the whole value as JSON, e.g. --set ${stage}.${param.split('.')[0]}='{"…": …}')`,
    );
  }
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: the string itself
  }
  return { stage, param, value, text };
}

export function parseOverrides(texts: readonly string[] = []): ParamOverride[] {
  return texts.map(parseOverride);
}

/**
 * The config with each override's value in its stage's params (in order: a later one for the same
 * param wins), and a problem for each override naming a stage the config does not have. Whether
 * the param exists is checked against the stage module's declaration (`overrideProblems`), which
 * is known only once the module is loaded.
 */
export function applyOverrides(config: DagConfig, overrides: readonly ParamOverride[]): { config: DagConfig; problems: string[] } {
  if (!overrides.length) return { config, problems: [] };
  const names = (config.stages ?? []).map((s) => s.name);
  const problems: string[] = [];
  const byStage = new Map<string, Record<string, unknown>>();
  for (const o of overrides) {
    if (!names.includes(o.stage)) {
      const hint = closestName(o.stage, names);
      const source = o.stage in (config.sources ?? {}) ? ` ('${o.stage}' is a source: sources have no params)` : '';
      problems.push(
        `--set ${o.text}: no stage '${o.stage}'${source}${hint ? ` (did you mean '${hint}'?)` : ''}; stages: ${names.join(', ') || 'none'}`,
      );
      continue;
    }
    byStage.set(o.stage, { ...byStage.get(o.stage), [o.param]: o.value });
  }
  const stages = (config.stages ?? []).map((s) => (byStage.has(s.name) ? { ...s, params: { ...s.params, ...byStage.get(s.name) } } : s));
  return { config: { ...config, stages }, problems };
}

/**
 * The overrides of `stage` that name a param it does not have: its module's declared params, or,
 * when the module declares none, those dag.config.ts gives it.
 */
export function overrideProblems(
  stage: string,
  declared: Record<string, unknown> | undefined,
  configParams: Record<string, unknown> | undefined,
  overrides: readonly ParamOverride[],
): { problems: string[]; unknown: Set<string> } {
  const known = Object.keys(declared ?? configParams ?? {});
  const problems: string[] = [];
  const unknown = new Set<string>();
  for (const o of overrides) {
    if (o.stage !== stage || known.includes(o.param)) continue;
    unknown.add(o.param);
    const hint = closestName(o.param, known);
    const none = declared ? 'none (the stage takes no params)' : 'none (its module declares no params and dag.config.ts gives it none)';
    problems.push(
      `--set ${o.text}: stage '${stage}' has no param '${o.param}'${hint ? ` (did you mean '${hint}'?)` : ''}; known: ${known.join(', ') || none}`,
    );
  }
  return { problems: [...new Set(problems)], unknown };
}
