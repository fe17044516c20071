/**
 * `cdp verify` over the memos (units/<stage>/*.ndjson): every line's checksum checked, every key
 * index checked against the lines it points to. With `repair`, a file with bad lines is rewritten
 * without them (its units are then computed again when next needed) and a bad index removed (the
 * file is scanned instead). A torn last line, left by a run killed mid-write, is never a unit:
 * it is reported, and dropped by a repair.
 */
import { existsSync, readdirSync, renameSync, rmSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { tempPathFor } from './atomic.ts';
import { LineWriter, readLineAt, readLines } from './lines.ts';
import { MemoIndex, MemoIndexBuilder, keyDigest } from './memo-index.ts';
import { checkMemoLine, LINE_KEY } from './memo-line.ts';

export interface MemoProblem {
  stage: string;
  file: string;
  /** Byte offset of the line, or null for a problem of the file's index. */
  offset: number | null;
  problem: string;
}

export interface MemoReport {
  stages: number;
  files: number;
  units: number;
  problems: MemoProblem[];
}

/** Whether each entry of a memo file's index points at a line carrying its key. */
function indexProblem(path: string): string | null {
  const index = MemoIndex.open(path);
  if (!index) return null; // none, or stale: the file is scanned, as a run would
  const fd = openSync(path, 'r');
  try {
    for (const [digest, at] of index.entries()) {
      const key = LINE_KEY.exec(readLineAt(fd, at.offset, Math.min(at.bytes, 200), path))?.[1];
      if (key === undefined || keyDigest(key).toString('latin1') !== digest)
        return `its index points at byte ${at.offset}, which is not that unit`;
    }
  } finally {
    closeSync(fd);
  }
  return null;
}

/** Rewrites a memo file keeping only its intact lines, with a fresh index. */
function rewriteIntact(path: string): void {
  const tmp = tempPathFor(path);
  const out = new LineWriter(tmp);
  const index = new MemoIndexBuilder();
  let position = 0;
  for (const { line } of readLines(path)) {
    if (checkMemoLine(line) !== 'intact') continue;
    const bytes = Buffer.byteLength(line);
    index.add(LINE_KEY.exec(line)![1], position, bytes);
    position += bytes + 1;
    out.write(line);
  }
  out.close();
  rmSync(`${path}.idx`, { force: true });
  renameSync(tmp, path);
  index.write(`${path}.idx`, position);
}

function verifyFile(stage: string, dir: string, file: string, repair: boolean, report: MemoReport): void {
  const path = join(dir, file);
  const problems: MemoProblem[] = [];
  let units = 0;
  for (const { line, offset } of readLines(path, {
    onTorn: (at) => problems.push({ stage, file, offset: at, problem: 'torn last line (a run killed mid-write): not a unit' }),
  })) {
    const check = checkMemoLine(line);
    if (check === 'intact') units++;
    else problems.push({ stage, file, offset, problem: check });
  }
  const badIndex = indexProblem(path);
  if (badIndex) problems.push({ stage, file, offset: null, problem: badIndex });
  report.units += units;
  report.files++;
  report.problems.push(...problems);
  if (!repair || !problems.length) return;
  if (problems.some((p) => p.offset !== null)) rewriteIntact(path);
  else rmSync(`${path}.idx`, { force: true });
}

/** Checks (and with `repair`, repairs) every memo of the store. The caller holds the run lock to repair. */
export function verifyMemos(storeDir: string, opts: { repair: boolean }): MemoReport {
  const report: MemoReport = { stages: 0, files: 0, units: 0, problems: [] };
  const root = join(storeDir, 'units');
  if (!existsSync(root)) return report;
  const stages = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const stage of stages.map((e) => e.name).sort()) {
    const dir = join(root, stage);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ndjson'))
      .sort();
    report.stages++;
    for (const file of files) verifyFile(stage, dir, file, opts.repair, report);
  }
  return report;
}
