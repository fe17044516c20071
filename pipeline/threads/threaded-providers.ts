/**
 * In-process providers (offline models) answered on the pool's worker threads. A worker builds
 * the providers itself, by calling the module's `answer` function, which must answer a call from
 * the prompt and its context alone (pure): the call goes out as plain data and the response comes
 * back the same way. The LLM client, its cache and its counters stay on the main thread; only the
 * answering moves. One task serves every model named, so calls of several models batch together.
 *
 * A context member that recurs (the same object in another call: a dialogue's case and tree turn
 * after turn, a judged pathway across the judge's repeats) crosses as a shared value (Pending.refs),
 * once per worker; `answerCall` puts the call back together there.
 */
import { moduleExport } from './module-export.ts';
import type { OfflineHandler, Provider, ProviderPrompt, ProviderResponse } from '../llm/types.ts';
import type { ThreadPool } from './pool.ts';

/** One offline call as it crosses to a worker. */
export interface OfflineCall {
  name: string;
  prompt: ProviderPrompt;
  context: Readonly<Record<string, unknown>> | undefined;
}

/** An offline call on its way: the context's recurring members null, named in the order of the call's refs. */
interface Crossing extends OfflineCall {
  shared?: string[];
}

/** Where the answering function is: the stand-ins' module and its export. */
interface Target {
  module: string;
  fn: string;
}

/**
 * Providers for the stand-ins `here` (built on this thread, for what they declare) whose answers
 * `module`'s export `fn(call: OfflineCall)` computes, on a worker once the calls are worth it
 * (task.ts, with no count known: after `coldMs` spent inline). A stand-in that answers from the
 * context alone stays so declared, so its calls cross without their prompts' text.
 */
export function threadedProviders(
  pool: ThreadPool,
  here: Readonly<Record<string, OfflineHandler | Provider>>,
  module: string,
  fn: string,
): Record<string, Provider> {
  const task = pool.task<Crossing, ProviderResponse>({
    module: import.meta.filename,
    fn: 'answerCall',
    shared: { module, fn } satisfies Target,
  });
  const seen = new WeakSet<object>();
  const provider = (name: string, h: OfflineHandler | Provider): Provider => ({
    ...(typeof h !== 'function' && h.answersFromContext ? { answersFromContext: true } : {}),
    callApi: (prompt, context) => {
      const { crossing, refs } = crossingOf(name, plainPrompt(prompt), context, seen);
      return task.run(crossing, 1, refs);
    },
  });
  return Object.fromEntries(Object.entries(here).map(([n, h]) => [n, provider(n, h)]));
}

/** The call with its context's recurring object members set apart (first seen: sent within the call). */
function crossingOf(
  name: string,
  prompt: ProviderPrompt,
  context: Readonly<Record<string, unknown>> | undefined,
  seen: WeakSet<object>,
): { crossing: Crossing; refs?: object[] } {
  if (!context) return { crossing: { name, prompt, context } };
  let own: Record<string, unknown> | null = null;
  const shared: string[] = [];
  const refs: object[] = [];
  for (const k in context) {
    const v = context[k];
    if (v !== null && typeof v === 'object' && seen.has(v)) {
      // Left in place as null, so the context is rebuilt with its members in their order.
      own ??= { ...context };
      own[k] = null;
      shared.push(k);
      refs.push(v);
    } else if (v !== null && typeof v === 'object') seen.add(v);
  }
  if (!own) return { crossing: { name, prompt, context } };
  return { crossing: { name, prompt, context: own, shared }, refs };
}

type Answer = (call: OfflineCall) => unknown;
const loading = new Map<string, Promise<Answer>>();
const loaded = new Map<string, Answer>();

/**
 * On either side of the pool: the call put back together, answered by the stand-ins' function.
 * Synchronous once the function is loaded, so a task timing its items inline (task.ts) times the
 * answer itself, not a wait for the module.
 */
export function answerCall(c: Crossing, target: Target, refs: readonly unknown[] = []): unknown {
  const key = `${target.module}\u0000${target.fn}`;
  const f = loaded.get(key);
  if (f) return f(callOf(c, refs));
  let load = loading.get(key);
  if (!load) {
    load = moduleExport<Answer>(target.module, target.fn, ' to answer offline calls').then((fn) => (loaded.set(key, fn), fn));
    loading.set(key, load);
  }
  return load.then((fn) => fn(callOf(c, refs)));
}

/** The call as the stand-in would get it on the main thread: the prompt carries its context again. */
function callOf(c: Crossing, refs: readonly unknown[]): OfflineCall {
  let context = c.context;
  if (c.shared) {
    const whole: Record<string, unknown> = { ...context };
    c.shared.forEach((k, i) => (whole[k] = refs[i]));
    context = whole;
  }
  return { name: c.name, prompt: context === undefined ? c.prompt : { ...c.prompt, context }, context };
}

/**
 * The prompt without what does not cross threads or is of no use to an offline answer (the cache
 * entry), and without its context, which crosses beside it (its recurring members once).
 */
function plainPrompt(prompt: ProviderPrompt): ProviderPrompt {
  if (prompt.call === undefined && prompt.context === undefined) return prompt;
  const { call, context, ...rest } = prompt;
  void call;
  void context;
  return rest;
}
