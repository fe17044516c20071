/** Functions the pool's tests run on workers: each says which thread computed it. */
import { threadId } from 'node:worker_threads';

/** x² + shared.offset, and the thread that computed it. */
export function square(x: number, shared: { offset: number }): { value: number; thread: number } {
  return { value: x * x + shared.offset, thread: threadId };
}

/** Throws for 3, like a unit whose data its code cannot take. */
export function failOnThree(x: number): number {
  if (x === 3) throw Object.assign(new Error('three is not allowed'), { code: 'EBADTHREE' });
  return x;
}

/** Ends its thread for 'poison', as a native crash or an out-of-memory would. */
export function crashOnPoison(x: string): string {
  if (x === 'poison') process.exit(7);
  return x.toUpperCase();
}

/** Busy for `ms` milliseconds of CPU (CPU, so a loaded machine does not shrink it), then its input. */
export function spin(x: { ms: number; v: number }): number {
  const t0 = process.cpuUsage();
  let acc = 0;
  for (;;) {
    for (let i = 0; i < 1000; i++) acc += Math.sqrt(acc + x.v);
    const d = process.cpuUsage(t0);
    if ((d.user + d.system) / 1000 >= x.ms) break;
  }
  return x.v + (acc > -1 ? 0 : 1);
}

/** The item plus every shared value's `v`, and the thread; 'poison' ends the thread as crashOnPoison does. */
export function sumRefs(x: number | 'poison', _shared: unknown, refs: readonly { v: number }[] = []): { value: number; thread: number } {
  if (x === 'poison') process.exit(7);
  return { value: x + refs.reduce((s, r) => s + r.v, 0), thread: threadId };
}

/** An offline call as a stand-in receives it: its context's keys in order, the context, the thread. */
export function echoCall(call: { name: string; prompt?: { context?: unknown }; context?: Record<string, unknown> }): unknown {
  return {
    name: call.name,
    keys: Object.keys(call.context ?? {}),
    context: call.context,
    promptContext: call.prompt?.context,
    thread: threadId,
  };
}
