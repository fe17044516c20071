/**
 * What an OpenAI-compatible server said when it refused a request, read from whatever body it
 * sent: OpenAI's nested `{"error": {"message", "type", "code"}}`, vLLM's and SGLang's flat
 * `{"object": "error", "message", "type", "code"}`, llama.cpp's `{"error": {…, "n_ctx"}}`,
 * FastAPI's `{"detail": …}`, Ollama's `{"error": "…"}`, plain text, or a proxy's HTML page
 * (nginx's "502 Bad Gateway"). Also whether the refusal is a context overflow, and the window the
 * server states, from the messages servers are known to give (see CONTEXT_OVERFLOW below).
 */

/** Longest server message kept in a failure: enough for any overflow sentence, short enough for a table cell. */
export const MAX_SERVER_MESSAGE = 300;

export interface ServerError {
  /** The server's own words, whitespace collapsed and trimmed to MAX_SERVER_MESSAGE; '' when the body said nothing. */
  message: string;
  /** The body's error code or type, when it gave one (`context_length_exceeded`, `BadRequestError`, …). */
  code?: string;
  /** The prompt did not fit the model's window, by the server's own account. */
  overflow: boolean;
  /** The window the server stated, when it stated one. */
  window?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Collapses whitespace and cuts a message to `max` characters, marking the cut. */
export function trimMessage(s: string, max = MAX_SERVER_MESSAGE): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The readable text of an HTML error page: its title, else its text without tags. */
function htmlText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  if (title?.trim()) return title;
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ');
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim()) return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** FastAPI's `detail`: a string, or pydantic's list of `{loc, msg}`. */
function detailText(d: unknown): string | undefined {
  if (typeof d === 'string') return d;
  if (Array.isArray(d))
    return d
      .map((x) => (isObject(x) ? [Array.isArray(x.loc) ? x.loc.join('.') : '', str(x.msg) ?? ''].filter(Boolean).join(': ') : String(x)))
      .join('; ');
  return undefined;
}

/** The message, code and any stated window of a parsed JSON error body. */
function fromJson(body: Record<string, unknown>): { message?: string; code?: string; window?: number } {
  const e = body.error;
  if (isObject(e)) {
    const nCtx = typeof e.n_ctx === 'number' ? e.n_ctx : undefined;
    return { message: str(e.message) ?? JSON.stringify(e), code: str(e.code) ?? str(e.type), window: nCtx };
  }
  if (typeof e === 'string') return { message: e, code: str(body.code) ?? str(body.type) };
  if (body.object === 'error' || typeof body.message === 'string')
    return { message: str(body.message), code: str(body.code) ?? str(body.type) };
  const detail = detailText(body.detail);
  if (detail) return { message: detail };
  return { message: JSON.stringify(body) };
}

/**
 * How servers word a context overflow, with the capture group holding the window where the
 * wording states it. OpenAI and vLLM: "This model's maximum context length is 8192 tokens.
 * However, you requested 9000 tokens …" (newer vLLM: "… and your request has 2778 input tokens");
 * vLLM's engine: "The decoder prompt (length 9000) is longer than the maximum model length of
 * 8192" / "Prompt length of 9000 is longer than the maximum model length of 8192"; SGLang: "The
 * input (9000 tokens) is longer than the model's context length (8192 tokens)" / "Requested token
 * count exceeds the model's maximum context length of 8192 tokens"; llama.cpp: "request (9000
 * tokens) exceeds the available context size (8192 tokens)" / "the request exceeds the available
 * context size, try increasing it"; TGI: "`inputs` tokens + `max_new_tokens` must be <= 8192".
 */
const CONTEXT_OVERFLOW: readonly RegExp[] = [
  /maximum context length (?:is|of) (\d+)/i,
  /longer than the maximum model length of (\d+)/i,
  /longer than the model's context length \((\d+) tokens\)/i,
  /exceeds the available context size(?: \((\d+) tokens\))?/i,
  /max_new_tokens`? must be <= (\d+)/i,
  /context[ _]length[ _]exceeded/i,
  /exceed_context_size_error/i,
  /(?:prompt|input) is too long/i,
  /exceeds? (?:the )?(?:model's )?context (?:window|length)/i,
];

/** Whether a message (or code) says the prompt did not fit, and the window it states. */
export function contextOverflowIn(text: string): { overflow: boolean; window?: number } {
  for (const re of CONTEXT_OVERFLOW) {
    const m = re.exec(text);
    if (m) return m[1] ? { overflow: true, window: Number(m[1]) } : { overflow: true };
  }
  return { overflow: false };
}

/**
 * Reads an error body: `body` as the SDK parsed it (an object when the body was JSON) or as text.
 * Never throws; a body that says nothing gives message ''.
 */
export function readServerError(body: unknown): ServerError {
  let message = '';
  let code: string | undefined;
  let window: number | undefined;
  if (isObject(body)) ({ message = '', code, window } = fromJson(body));
  else if (typeof body === 'string') {
    const text = body.trim();
    let parsed: unknown;
    if (text.startsWith('{')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON after all: read as text.
      }
    }
    if (isObject(parsed)) return readServerError(parsed);
    message = /^<(!doctype|html|head|body)/i.test(text) ? htmlText(text) : text;
  }
  message = trimMessage(message);
  const said = contextOverflowIn(`${message} ${code ?? ''}`);
  const stated = window ?? said.window;
  return {
    message,
    ...(code ? { code } : {}),
    overflow: said.overflow,
    ...(stated !== undefined && stated > 0 ? { window: stated } : {}),
  };
}
