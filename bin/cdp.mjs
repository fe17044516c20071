#!/usr/bin/env node
// The `cdp` command. The project runs TypeScript sources directly, so tsx's loader is
// registered before the CLI is imported.
import { tryFastNoop } from '../pipeline/cli/fast-noop.mjs';

// A run that has nothing to do is answered from the last run's fingerprint, before the
// TypeScript loader (the bulk of start-up time) is registered.
if (!tryFastNoop(process.argv.slice(2))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../pipeline/cli/main.ts');
}
