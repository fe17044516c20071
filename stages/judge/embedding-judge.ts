/**
 * The embedding judge: step-level consistency as the cosine similarity of step embeddings from
 * an embeddings endpoint (a BERTScore-like judge for those who can serve an embedding model;
 * BERTScore itself needs weights this project cannot ship). C_ij = max(0, cos(r_i, c_j)):
 * already in [0,1], no Likert scale, one request for all the steps of a pathway pair.
 */
import type { EmbedRequest, EmbedResult } from '../../pipeline/stage.ts';

export interface Embedder {
  embed(req: EmbedRequest): Promise<EmbedResult>;
}

export type EmbeddingJudgement =
  { ok: true; C: Float64Array; m: number; n: number; calls: number } | { ok: false; reason: string; m: number; n: number; calls: number };

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`embedding judge: vectors of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export async function judgeByEmbeddings(
  client: Embedder,
  judge: string,
  reference: readonly string[],
  candidate: readonly string[],
): Promise<EmbeddingJudgement> {
  const m = reference.length;
  const n = candidate.length;
  if (m === 0) return { ok: false, reason: 'the reference pathway has no steps', m, n, calls: 0 };
  if (n === 0) return { ok: true, C: new Float64Array(0), m, n, calls: 0 };
  const r = await client.embed({ model: judge, role: 'judge', input: [...reference, ...candidate] });
  if (!r.ok) return { ok: false, reason: r.error, m, n, calls: 1 };
  const C = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) C[i * n + j] = Math.min(1, Math.max(0, cosine(r.vectors[i], r.vectors[m + j])));
  return { ok: true, C, m, n, calls: 1 };
}
