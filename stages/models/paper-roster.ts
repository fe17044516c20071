/**
 * The models of the MEGA-CDP paper as a roster: the builder (GPT-5.2, §3.1), the 16 evaluated
 * models of Table 1 under the names the paper prints, and the two LLM judges (GPT-5.4 Mini, the
 * default, and Qwen3-8B, §3.3). Every entry is inactive until its endpoint is configured:
 *
 *   - proprietary models: their provider's OpenAI-compatible endpoint and key variable
 *     (OPENAI_API_KEY, GEMINI_API_KEY, ANTHROPIC_API_KEY); CDP_LLM_URL_<SLUG> overrides the URL
 *     (for a gateway such as OpenRouter or LiteLLM);
 *   - open models: CDP_LLM_URL_<SLUG> = the base URL(s) of your vLLM / SGLang server
 *     (comma-separated replicas), key in CDP_LLM_KEY_<SLUG> if the server wants one;
 *   - or CDP_LLM_BASE_URL for everything at once (see resolveRoster).
 *
 * Sampling: the paper evaluates every model "with their default configurations", so no
 * sampling parameter is sent and each server's defaults apply. The judge's five repeats differ
 * through the repeat index (distinct calls), so the judge must not be forced to temperature 0.
 *
 * Context windows are the published maxima of each model (the paper required at least 40K);
 * Qwen3 dense/MoE base releases reach 131,072 with YaRN enabled on the server — configure it,
 * or lower the window here to what your server really serves.
 *
 * PRICES: set your own. Every price below is 0 (shown as "price not set" by `cdp estimate`):
 * we do not copy price lists into code, and self-hosted models cost what your hardware costs.
 * Put your provider's current USD per million input/output tokens in `price` before estimating.
 */
import type { ModelSpec, LlmRole } from '../../pipeline/llm/types.ts';

const SET_YOUR_OWN_PRICE = { inputPerMTok: 0, outputPerMTok: 0 };

function slug(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
}

function proprietary(name: string, modelId: string, provider: 'openai' | 'gemini' | 'anthropic', contextWindow: number, roles: LlmRole[]): ModelSpec {
  const endpoint = {
    openai: { url: 'https://api.openai.com/v1', key: 'OPENAI_API_KEY' },
    gemini: { url: 'https://generativelanguage.googleapis.com/v1beta/openai', key: 'GEMINI_API_KEY' },
    anthropic: { url: 'https://api.anthropic.com/v1', key: 'ANTHROPIC_API_KEY' },
  }[provider];
  return {
    name,
    roles,
    provider: 'openai-compatible',
    baseURLs: [endpoint.url],
    baseURLEnv: `CDP_LLM_URL_${slug(name)}`,
    apiKeyEnv: endpoint.key,
    modelId,
    params: {},
    contextWindow,
    concurrency: 16,
    price: SET_YOUR_OWN_PRICE,
    // Only OpenAI's own endpoint implements the Batch API; turn batch on per run where it applies.
    batch: false,
    note: 'price: set your own',
  };
}

function open(name: string, modelId: string, contextWindow: number, roles: LlmRole[] = ['evaluated']): ModelSpec {
  return {
    name,
    roles,
    provider: 'openai-compatible',
    baseURLEnv: `CDP_LLM_URL_${slug(name)}`,
    apiKeyEnv: `CDP_LLM_KEY_${slug(name)}`,
    apiKeyOptional: true,
    modelId,
    params: {},
    contextWindow,
    concurrency: 16,
    price: SET_YOUR_OWN_PRICE,
    note: 'self-hosted (vLLM/SGLang); price: set your own',
  };
}

/** The builder that constructs trees, vignettes and narratives. */
export const PAPER_BUILDER = 'gpt-5.2';
/** The judges, default first. */
export const PAPER_JUDGES = ['gpt-5.4-mini', 'qwen3-8b'] as const;
/** Table 1's models in the paper's order and spelling. */
export const PAPER_EVALUATED = [
  'Gemini-3.1-Pro-Preview',
  'GPT-5.4',
  'Claude-Sonnet-4.6',
  'Qwen3-8B',
  'Qwen3-32B',
  'Qwen3-235B-A22B',
  'Qwen3-30B-A3B-Instruct-2507',
  'Qwen3-30B-A3B-Thinking-2507',
  'Qwen3-Next-80B-A3B-Instruct',
  'Qwen3-Next-80B-A3B-Thinking',
  'DeepSeek-R1-Distill-Qwen-32B',
  'gpt-oss-120b',
  'LLaMA-3.3-70B-Instruct',
  'HuatuoGPT-o1-7B',
  'HuatuoGPT-o1-72B',
  'Baichuan-M3-235B',
] as const;

export const paperRoster: ModelSpec[] = [
  proprietary(PAPER_BUILDER, 'gpt-5.2', 'openai', 400_000, ['builder']),
  // Proprietary (Table 1)
  proprietary('Gemini-3.1-Pro-Preview', 'gemini-3.1-pro-preview', 'gemini', 1_048_576, ['evaluated']),
  proprietary('GPT-5.4', 'gpt-5.4', 'openai', 400_000, ['evaluated']),
  proprietary('Claude-Sonnet-4.6', 'claude-sonnet-4-6', 'anthropic', 200_000, ['evaluated']),
  // Open-source (Table 1)
  open('Qwen3-8B', 'Qwen/Qwen3-8B', 131_072),
  open('Qwen3-32B', 'Qwen/Qwen3-32B', 131_072),
  open('Qwen3-235B-A22B', 'Qwen/Qwen3-235B-A22B', 131_072),
  open('Qwen3-30B-A3B-Instruct-2507', 'Qwen/Qwen3-30B-A3B-Instruct-2507', 262_144),
  open('Qwen3-30B-A3B-Thinking-2507', 'Qwen/Qwen3-30B-A3B-Thinking-2507', 262_144),
  open('Qwen3-Next-80B-A3B-Instruct', 'Qwen/Qwen3-Next-80B-A3B-Instruct', 262_144),
  open('Qwen3-Next-80B-A3B-Thinking', 'Qwen/Qwen3-Next-80B-A3B-Thinking', 262_144),
  open('DeepSeek-R1-Distill-Qwen-32B', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', 131_072),
  open('gpt-oss-120b', 'openai/gpt-oss-120b', 131_072),
  open('LLaMA-3.3-70B-Instruct', 'meta-llama/Llama-3.3-70B-Instruct', 131_072),
  // Specialised medical (Table 1)
  open('HuatuoGPT-o1-7B', 'FreedomIntelligence/HuatuoGPT-o1-7B', 131_072),
  open('HuatuoGPT-o1-72B', 'FreedomIntelligence/HuatuoGPT-o1-72B', 131_072),
  open('Baichuan-M3-235B', 'baichuan-inc/Baichuan-M3-235B', 131_072),
  // Judges (§3.3): GPT-5.4 Mini is the default; Qwen3-8B the open alternative.
  proprietary('gpt-5.4-mini', 'gpt-5.4-mini', 'openai', 400_000, ['judge']),
  open('qwen3-8b', 'Qwen/Qwen3-8B', 131_072, ['judge']),
];
