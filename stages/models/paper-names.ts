/**
 * The paper's models by the names it prints: facts of the paper that the reports order and match
 * by (Table 1's row order, the judges of Tables 5–7). Which endpoint serves each one is
 * configuration, in models/paper.json.
 */

/** The builder that constructed trees, vignettes and narratives (§3.1). */
export const PAPER_BUILDER = 'gpt-5.2';
/** The LLM judges (§3.3), the default first. */
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

/** Every name a models-file entry's "paper" field may take. */
export const PAPER_MODEL_NAMES: readonly string[] = [PAPER_BUILDER, ...PAPER_EVALUATED, ...PAPER_JUDGES];
