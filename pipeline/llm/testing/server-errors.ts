/**
 * Error responses as OpenAI-compatible servers and the proxies in front of them send them, for
 * the fake server (fake-openai-server.ts, `{ kind: 'body' }` faults) and the tests that read
 * them: a status, a content type and a body in each server's own error format (OpenAI's nested
 * error object, vLLM's and SGLang's flat `ErrorResponse`, llama.cpp's error object with `n_ctx`,
 * FastAPI's `detail`, Ollama's string `error`, plain text, nginx's built-in error page), with the
 * message the client must report and, for overflows, the window it must read. The overflow
 * messages are the sentences those servers' code writes (vLLM's serving engine and engine
 * validation, SGLang's tokenizer manager, llama.cpp's server, OpenAI's API).
 */

export interface ServerErrorBody {
  id: string;
  status: number;
  contentType: string;
  body: string;
  /** The server's own words, as the failure must carry them. */
  message: string;
  /** For a context overflow: the window the message states (null: it states none). */
  overflowWindow?: number | null;
}

const json = 'application/json';

export const SERVER_ERROR_BODIES: readonly ServerErrorBody[] = [
  {
    id: 'openai-nested-overflow',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    }),
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
    overflowWindow: 128000,
  },
  {
    // vLLM before 0.10: the flat ErrorResponse the SDK used to report as "400 status code (no body)".
    id: 'vllm-flat-overflow',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message:
        "This model's maximum context length is 8192 tokens. However, you requested 9216 tokens (8192 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
    message:
      "This model's maximum context length is 8192 tokens. However, you requested 9216 tokens (8192 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
    overflowWindow: 8192,
  },
  {
    // vLLM 0.10+: nested, and the max_tokens wording.
    id: 'vllm-nested-max-tokens',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      error: {
        message:
          "'max_tokens' or 'max_completion_tokens' is too large: 4096. This model's maximum context length is 8192 tokens and your request has 6000 input tokens (4096 > 8192 - 6000).",
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    }),
    message:
      "'max_tokens' or 'max_completion_tokens' is too large: 4096. This model's maximum context length is 8192 tokens and your request has 6000 input tokens (4096 > 8192 - 6000).",
    overflowWindow: 8192,
  },
  {
    id: 'vllm-decoder-prompt',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message:
        'The decoder prompt (length 17772) is longer than the maximum model length of 16384. Make sure that `max_model_len` is no smaller than the number of text tokens.',
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
    message:
      'The decoder prompt (length 17772) is longer than the maximum model length of 16384. Make sure that `max_model_len` is no smaller than the number of text tokens.',
    overflowWindow: 16384,
  },
  {
    id: 'sglang-flat-overflow',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message:
        "Requested token count exceeds the model's maximum context length of 32768 tokens. You requested a total of 33792 tokens: 32768 tokens from the input messages and 1024 tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
    message:
      "Requested token count exceeds the model's maximum context length of 32768 tokens. You requested a total of 33792 tokens: 32768 tokens from the input messages and 1024 tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.",
    overflowWindow: 32768,
  },
  {
    id: 'sglang-input-longer',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message: "The input (40000 tokens) is longer than the model's context length (32768 tokens).",
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
    message: "The input (40000 tokens) is longer than the model's context length (32768 tokens).",
    overflowWindow: 32768,
  },
  {
    id: 'llamacpp-exceed-context',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      error: {
        code: 400,
        message: 'request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 4476,
        n_ctx: 4096,
      },
    }),
    message: 'request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it',
    overflowWindow: 4096,
  },
  {
    id: 'openai-code-only-overflow',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      error: { message: 'Input too large for this model.', type: 'invalid_request_error', code: 'context_length_exceeded' },
    }),
    message: 'Input too large for this model.',
    overflowWindow: null,
  },
  {
    id: 'vllm-flat-bad-param',
    status: 400,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message: "[{'type': 'less_than_equal', 'loc': ('body', 'temperature'), 'msg': 'Input should be less than or equal to 2'}]",
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
    message: "[{'type': 'less_than_equal', 'loc': ('body', 'temperature'), 'msg': 'Input should be less than or equal to 2'}]",
  },
  {
    id: 'vllm-flat-model-not-found',
    status: 404,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message: 'The model `qwen3-8b` does not exist.',
      type: 'NotFoundError',
      param: null,
      code: 404,
    }),
    message: 'The model `qwen3-8b` does not exist.',
  },
  {
    id: 'fastapi-detail',
    status: 422,
    contentType: json,
    body: JSON.stringify({ detail: [{ type: 'missing', loc: ['body', 'messages'], msg: 'Field required', input: {} }] }),
    message: 'body.messages: Field required',
  },
  {
    id: 'ollama-string-error',
    status: 400,
    contentType: json,
    body: JSON.stringify({ error: 'invalid temperature: must be between 0 and 2' }),
    message: 'invalid temperature: must be between 0 and 2',
  },
  {
    id: 'plain-text-500',
    status: 500,
    contentType: 'text/plain; charset=utf-8',
    body: 'Internal Server Error',
    message: 'Internal Server Error',
  },
  {
    id: 'nginx-502-html',
    status: 502,
    contentType: 'text/html',
    body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0 (Ubuntu)</center>\r\n</body>\r\n</html>\r\n',
    message: '502 Bad Gateway',
  },
  {
    // A server in the flat error format answering while its model loads.
    id: 'json-503-loading',
    status: 503,
    contentType: json,
    body: JSON.stringify({
      object: 'error',
      message: 'The server is not ready yet: the model is still loading.',
      type: 'ServiceUnavailableError',
      param: null,
      code: 503,
    }),
    message: 'The server is not ready yet: the model is still loading.',
  },
  {
    id: 'empty-503',
    status: 503,
    contentType: 'text/plain',
    body: '',
    message: '',
  },
];

export const errorBody = (id: string): ServerErrorBody => {
  const b = SERVER_ERROR_BODIES.find((x) => x.id === id);
  if (!b) throw new Error(`no server error body "${id}"; known: ${SERVER_ERROR_BODIES.map((x) => x.id).join(', ')}`);
  return b;
};
