/** `cdp --config cpgbench.config.ts serve [--port N]`: a preview of CPGBench's built notebooks on 127.0.0.1. */
import { serveCommand } from '../../commands/serve.ts';

export const serve = serveCommand({
  description: "preview CPGBench's built notebooks (the reports' site/, e.g. reports/cpgbench/site/) on 127.0.0.1",
  build: 'cdp --config cpgbench.config.ts notebooks',
});
