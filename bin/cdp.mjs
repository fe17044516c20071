#!/usr/bin/env node
// The `cdp` command. The project runs TypeScript sources directly, so register tsx's loader
// before importing the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../pipeline/cli/main.ts');
