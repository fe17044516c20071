/**
 * A pool worker's loop: it keeps each task's function and shared value, and runs the batches it
 * is sent one after another, each item in order. An item that throws is that item's error; the
 * others of its batch go on. Batches queue behind each other, so the pool can send the next one
 * while this one runs and the worker never waits for a message between them.
 */
import { parentPort } from 'node:worker_threads';
import { moduleExport } from './module-export.ts';
import { thrown, type FromWorker, type ItemOutcome, type ToWorker } from './protocol.ts';

type TaskFn = (item: unknown, shared: unknown, refs?: unknown[]) => unknown;
type Batch = Extract<ToWorker, { type: 'batch' }>;

const port = parentPort;
if (!port) throw new Error('pipeline/threads/worker-loop.ts runs inside a worker thread only');

const tasks = new Map<number, { fn: Promise<TaskFn>; shared: unknown; refs: Map<number, unknown> }>();
let queue: Promise<void> = Promise.resolve();

async function runBatch({ id, task, items, refs }: Batch): Promise<FromWorker> {
  const t = tasks.get(task);
  if (!t) return { type: 'task-error', id, error: { message: `internal: worker got a batch of task ${task} before its shared value` } };
  let fn: TaskFn;
  try {
    fn = await t.fn;
  } catch (err) {
    return { type: 'task-error', id, error: thrown(err) };
  }
  // Applied when the batch runs, not when it arrives: a batch queued before it may need what it drops.
  for (const ref of refs?.drop ?? []) t.refs.delete(ref);
  for (const [ref, v] of refs?.values ?? []) t.refs.set(ref, v);
  const outcomes: ItemOutcome[] = [];
  for (const [k, item] of items.entries()) {
    try {
      const shared = refs?.of[k]?.map((ref) => {
        if (!t.refs.has(ref)) throw new Error(`internal: worker lacks shared value ${ref} of task ${task}`);
        return t.refs.get(ref);
      });
      outcomes.push({ ok: true, value: await fn(item, t.shared, shared) });
    } catch (err) {
      outcomes.push({ ok: false, error: thrown(err) });
    }
  }
  return { type: 'done', id, outcomes };
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'shared') {
    const fn = moduleExport<TaskFn>(m.module, m.fn, ' for the worker pool to call');
    fn.catch(() => {}); // reported with the task's first batch
    tasks.set(m.task, { fn, shared: m.shared, refs: new Map() });
  } else if (m.type === 'release') {
    // After the batches already queued: they still need it.
    queue = queue.then(() => void tasks.delete(m.task));
  } else {
    queue = queue.then(async () => port.postMessage(await runBatch(m)));
  }
});
port.postMessage({ type: 'ready' } satisfies FromWorker);
