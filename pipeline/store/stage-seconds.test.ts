import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStageSeconds, writeStageSeconds } from './stage-seconds.ts';

test('stage seconds: this run’s times replace the file’s for the stages that ran, the others kept; sorted, rounded to ms', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-seconds-'));
  try {
    const file = join(dir, 'stage-seconds.json');
    assert.deepEqual(readStageSeconds(file), new Map(), 'no file: nothing weighed');
    writeStageSeconds(
      file,
      new Map(),
      new Map([
        ['b', 2.00049],
        ['a', 1],
      ]),
    );
    writeStageSeconds(
      file,
      readStageSeconds(file),
      new Map([
        ['c', 0.25],
        ['a', 7.5],
      ]),
    );
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { a: 7.5, b: 2, c: 0.25 });
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8'))), ['a', 'b', 'c']);
    assert.deepEqual(readdirSync(dir), ['stage-seconds.json'], 'no temporary file left');
    // A run that ran nothing leaves the file as it was.
    writeStageSeconds(file, new Map(), new Map());
    assert.deepEqual([...readStageSeconds(file).keys()], ['a', 'b', 'c']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stage seconds: a damaged file or a bad value weighs nothing rather than failing the run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-seconds-'));
  try {
    const file = join(dir, 'stage-seconds.json');
    writeFileSync(file, '{"a": 3, "b": "slow", "c": -1, "d": null');
    assert.deepEqual(readStageSeconds(file), new Map());
    writeFileSync(file, '{"a": 3, "b": "slow", "c": -1, "d": null, "e": 1e400}');
    assert.deepEqual(readStageSeconds(file), new Map([['a', 3]]));
    writeFileSync(file, '[1, 2]');
    assert.deepEqual(readStageSeconds(file), new Map());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
