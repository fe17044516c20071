/**
 * An embedding judge, when an embeddings endpoint is configured: CDP_EMBED_BASE_URL and
 * CDP_EMBED_MODEL (key in CDP_EMBED_API_KEY if the server wants one). It scores step similarity
 * by cosine of embeddings, so it is a similarity judge and scores no outcomes.
 */
import type { EnvView } from '../../pipeline/index.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';

/** From the options' environment view (so the no-op fingerprint sees the variables). */
export function embeddingJudgeSpecs(env: EnvView): ModelSpec[] {
  const url = env.get('CDP_EMBED_BASE_URL')?.trim();
  const model = env.get('CDP_EMBED_MODEL')?.trim();
  if (!url || !model) return [];
  return [
    {
      name: `embed-${model}`,
      roles: ['judge'],
      provider: 'openai-compatible',
      baseURLs: url.split(',').map((u) => u.trim()),
      apiKeyEnv: 'CDP_EMBED_API_KEY',
      apiKeyOptional: true,
      modelId: model,
      note: 'embedding judge: cosine similarity of step embeddings',
    },
  ];
}
