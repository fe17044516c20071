/**
 * A function exported by a module named by path or file URL: how the pool, its workers and the
 * threaded stand-ins find the pure functions they run. `use` ends the error's sentence.
 */
import { pathToFileURL } from 'node:url';

export function moduleExport<F>(module: string, fn: string, use = ''): Promise<F> {
  const url = module.startsWith('file:') ? module : pathToFileURL(module).href;
  return import(url).then((m: Record<string, unknown>) => {
    const f = m[fn];
    if (typeof f !== 'function') throw new Error(`${module} has no exported function '${fn}'${use}`);
    return f as F;
  });
}
