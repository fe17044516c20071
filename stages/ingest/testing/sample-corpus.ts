// Where the committed sample guidelines live, for tests and the benchmark.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';

export const SAMPLE_DIR = fileURLToPath(new URL('../../../data/sample/guidelines/', import.meta.url));

export const SAMPLE_PDFS = [
  'en/cdc-2022-opioid-prescribing.pdf',
  'en/who-2021-hypertension-pharmacological-treatment-retypeset.pdf',
  'en/esi-2022-obesity-india-cpg.pdf',
  'en/casp-2021-chronic-postsurgical-pain-consensus.pdf',
  'zh/nhc-2020-delirium.pdf',
  'zh/nhc-2020-insomnia.pdf',
] as const;

export function readSample(rel: string): Promise<Buffer> {
  return readFile(join(SAMPLE_DIR, rel));
}
