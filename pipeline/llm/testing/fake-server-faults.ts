/**
 * The fake server's faults that look like real servers' (fake-openai-server.ts): a context
 * window enforced with a chosen server's overflow message, and 200s that are no answer.
 */
import type { ServerResponse } from 'node:http';
import type { ChatBody, OverflowStyle } from './fake-openai-server.ts';

/** Rough tokens of a request as the fake server counts them: 4 characters each, plus max_tokens. */
export function roughRequestTokens(body: ChatBody): { prompt: number; completion: number } {
  const chars = body.messages.reduce(
    (n, m) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length),
    0,
  );
  const completion = Number(body.max_tokens ?? body.max_completion_tokens ?? 0) || 0;
  return { prompt: Math.ceil(chars / 4), completion };
}

/** The 400 a server of `style` answers a request over its window with: status, content type, body. */
export function overflowResponse(
  style: OverflowStyle,
  window: number,
  prompt: number,
  completion: number,
): { status: number; body: string } {
  const total = prompt + completion;
  switch (style) {
    case 'openai':
      return {
        status: 400,
        body: JSON.stringify({
          error: {
            message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${total} tokens. Please reduce the length of the messages.`,
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        }),
      };
    case 'sglang':
      return {
        status: 400,
        body: JSON.stringify({
          object: 'error',
          message:
            `Requested token count exceeds the model's maximum context length of ${window} tokens. You requested a total of ${total} ` +
            `tokens: ${prompt} tokens from the input messages and ${completion} tokens for the completion. Please reduce the number ` +
            'of tokens in the input messages or the completion to fit within the limit.',
          type: 'BadRequestError',
          param: null,
          code: 400,
        }),
      };
    case 'llamacpp':
      return {
        status: 400,
        body: JSON.stringify({
          error: {
            code: 400,
            message: `request (${total} tokens) exceeds the available context size (${window} tokens), try increasing it`,
            type: 'exceed_context_size_error',
            n_prompt_tokens: prompt,
            n_ctx: window,
          },
        }),
      };
    case 'vllm':
      return {
        status: 400,
        body: JSON.stringify({
          object: 'error',
          message:
            `This model's maximum context length is ${window} tokens. However, you requested ${total} tokens (${prompt} in the ` +
            `messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
          type: 'BadRequestError',
          param: null,
          code: 400,
        }),
      };
  }
}

/** A 200 that is not an answer: `choices` as given, the rest of a chat.completion around it. */
export function sendNoAnswer(res: ServerResponse, model: string, choices: unknown[]): void {
  const s = JSON.stringify({
    id: 'chatcmpl-noanswer',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices,
    usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) });
  res.end(s);
}

export function sendRaw(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
