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

/** Busy for `ms` milliseconds of CPU, then its input: work for the speed-up check. */
export function spin(x: { ms: number; v: number }): number {
  const end = performance.now() + x.ms;
  let acc = 0;
  while (performance.now() < end) acc += Math.sqrt(acc + x.v);
  return x.v + (acc > -1 ? 0 : 1);
}
