// A pool worker's first module. Plain JavaScript, because the TypeScript loader is not
// registered yet when a worker starts (tsx registered on the main thread does not reach
// workers, and `--import tsx` in a worker's execArgv is not honoured by Node 20): it registers
// tsx, then loads the TypeScript loop that runs tasks.
import { register } from 'tsx/esm/api';

register();
await import('./worker-loop.ts');
