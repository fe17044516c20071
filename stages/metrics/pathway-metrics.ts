/**
 * The core of `cdp pathway-metrics`: one JSON object per line in, one per line out.
 *
 * In:  {"id", "C": [[…], …], "judge"?, "judge_kind"?, "gamma"?, "alpha"?, "beta"?, "lambda"?,
 *       "tau_a"?, "tau_b"?}   — C is m rows (reference steps) of n scores (predicted steps);
 *       an empty prediction is m empty rows.
 * Out: {"id", "dtw_pcc", "ot_pcc", "lnds_pcs", "dtw_path": [[i, j], …]}
 *      or, for a line that cannot be scored, {"id"?, "line": N, "error": "…"}; the other lines
 *      are still scored (one bad case never stops an evaluation of 10^5 pathways).
 *
 * Parameter resolution, most specific first: the line's own value; then, if the line names a
 * judge, that judge's γ/β (judge-params.ts); then the caller's defaults (explicit values, then
 * the caller's default judge); finally the paper's main judge, GPT-5.4 Mini (γ 0.7, β 0.2).
 * α, λ, τ have no per-judge values and fall back to OT_DEFAULTS.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { matrixFromRows } from './consistency-matrix.ts';
import { dtw } from './dtw.ts';
import { lndsPcs } from './lnds.ts';
import { OT_DEFAULTS, otPcc } from './ot.ts';
import { judgeParams, type JudgeKind, type JudgeParams } from './judge-params.ts';

export interface PathwayDefaults {
  judge?: string;
  judgeKind?: JudgeKind;
  gamma?: number;
  alpha?: number;
  beta?: number;
  lambda?: number;
  tauA?: number;
  tauB?: number;
  maxIter?: number;
  tol?: number;
}

export interface PathwayScore {
  id: string | number;
  dtw_pcc: number;
  ot_pcc: number;
  lnds_pcs: number;
  dtw_path: [number, number][];
}

const DEFAULT_JUDGE = 'gpt-5.4-mini';

function optionalNumber(line: Record<string, unknown>, key: string): number | undefined {
  const v = line[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`"${key}" must be a finite number, got ${JSON.stringify(v)}`);
  return v;
}

function optionalKind(v: unknown, where: string): JudgeKind | undefined {
  if (v === undefined || v === null) return undefined;
  if (v !== 'llm' && v !== 'similarity') throw new TypeError(`${where} must be "llm" or "similarity", got ${JSON.stringify(v)}`);
  return v;
}

export function scorePathway(line: object, defaults: PathwayDefaults = {}): PathwayScore {
  if (line === null || typeof line !== 'object' || Array.isArray(line))
    throw new TypeError('each line must be a JSON object {"id", "C", …}');
  const rec = line as Record<string, unknown>;
  const id = rec['id'];
  if (typeof id !== 'string' && typeof id !== 'number') throw new TypeError(`"id" must be a string or number, got ${JSON.stringify(id)}`);
  const { C, m, n } = matrixFromRows(rec['C'], 'C');

  const judge = rec['judge'];
  if (judge !== undefined && judge !== null && typeof judge !== 'string')
    throw new TypeError(`"judge" must be a string, got ${JSON.stringify(judge)}`);
  const lineKind = optionalKind(rec['judge_kind'], '"judge_kind"');
  const fromLineJudge: JudgeParams | undefined = typeof judge === 'string' ? judgeParams(judge, lineKind) : undefined;
  // A judge the paper did not calibrate would silently get another judge's γ: say so, unless the line gives its own.
  if (fromLineJudge && !fromLineJudge.calibrated && optionalNumber(rec, 'gamma') === undefined) {
    throw new RangeError(
      `unknown judge ${JSON.stringify(judge)}: calibrated judges are gpt-5.4-mini, qwen3-8b and bertscore; give "gamma" (and "beta") on the line for another judge`,
    );
  }
  const fromDefaultJudge = judgeParams(defaults.judge ?? DEFAULT_JUDGE, defaults.judgeKind);

  const gamma = optionalNumber(rec, 'gamma') ?? fromLineJudge?.gamma ?? defaults.gamma ?? fromDefaultJudge.gamma;
  const beta = optionalNumber(rec, 'beta') ?? fromLineJudge?.beta ?? defaults.beta ?? fromDefaultJudge.beta;
  const alpha = optionalNumber(rec, 'alpha') ?? defaults.alpha ?? OT_DEFAULTS.alpha;
  const lambda = optionalNumber(rec, 'lambda') ?? defaults.lambda ?? OT_DEFAULTS.lambda;
  const tauA = optionalNumber(rec, 'tau_a') ?? defaults.tauA ?? OT_DEFAULTS.tauA;
  const tauB = optionalNumber(rec, 'tau_b') ?? defaults.tauB ?? OT_DEFAULTS.tauB;

  const d = dtw(C, m, n);
  const o = otPcc(C, m, n, {
    alpha,
    beta,
    lambda,
    tauA,
    tauB,
    maxIter: defaults.maxIter ?? OT_DEFAULTS.maxIter,
    tol: defaults.tol ?? OT_DEFAULTS.tol,
  });
  if (!o.converged) {
    throw new Error(
      `OT did not converge in ${o.iterations} iterations (lambda=${lambda}, tau_a=${tauA}, tau_b=${tauB}); raise maxIter or lambda`,
    );
  }
  const l = lndsPcs(C, m, n, gamma);
  const path: [number, number][] = [];
  for (let k = 0; k < d.path.length; k += 2) path.push([d.path[k]!, d.path[k + 1]!]);
  return { id, dtw_pcc: d.pcc, ot_pcc: o.pcc, lnds_pcs: l.pcs, dtw_path: path };
}

/**
 * Reads JSONL from `input`, writes one JSONL result per non-blank input line to `output` (in
 * input order), and resolves with how many lines were scored and how many failed. Line numbers
 * in error records are 1-based and count blank lines, so they match an editor's.
 */
export async function runPathwayMetrics(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  defaults: PathwayDefaults = {},
): Promise<{ ok: number; failed: number }> {
  let ok = 0;
  let failed = 0;
  let lineNo = 0;
  const write = async (obj: object): Promise<void> => {
    if (!output.write(JSON.stringify(obj) + '\n')) await once(output, 'drain');
  };
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const text of lines) {
    lineNo++;
    if (text.trim() === '') continue;
    let id: unknown;
    let result: PathwayScore;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) id = (parsed as Record<string, unknown>)['id'];
      result = scorePathway(parsed as object, defaults);
    } catch (err) {
      failed++;
      const error = err instanceof SyntaxError ? `not valid JSON: ${err.message}` : (err as Error).message;
      await write({ ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}), line: lineNo, error });
      continue;
    }
    ok++;
    await write(result);
  }
  return { ok, failed };
}
