/**
 * Run progress for people: on a terminal, one bar per running stage (rows done / total, ETA);
 * elsewhere (CI, pipes), one plain line per stage start and end and an occasional progress line.
 */
import cliProgress from 'cli-progress';
import type { RunEvent, StageResult } from '../exec/executor.ts';

export type ProgressSink = (e: RunEvent) => void;

export function describeResult(r: StageResult): string {
  const parts = [`${r.stage}: ${r.status}`];
  if (r.rowsComputed || r.rowsReused) parts.push(`${r.rowsComputed} rows computed, ${r.rowsReused} reused`);
  if (r.partitions) parts.push(`${r.partitions.computed} of ${r.partitions.computed + r.partitions.reused} partitions computed`);
  if (r.rowsFailed) parts.push(`${r.rowsFailed} failed rows`);
  if (r.llmCalls || r.llmCached) parts.push(`${r.llmCalls} LLM calls, ${r.llmCached} cached`);
  parts.push(`${r.seconds.toFixed(2)} s`);
  let line = parts.join(', ');
  if (r.reasons?.length && r.status !== 'reused') line += ` (${r.reasons.join('; ')})`;
  if (r.error) line += `\n    ${r.error}`;
  return line;
}

export function progressSink(stream: NodeJS.WriteStream = process.stderr): { sink: ProgressSink; stop(): void } {
  if (!stream.isTTY) {
    const lastLogged = new Map<string, number>();
    return {
      sink(e) {
        if (e.type === 'stage-start') stream.write(`start ${e.stage}${e.total != null ? ` (${e.total} units)` : ''}\n`);
        else if (e.type === 'stage-end') stream.write(describeResult(e.result) + '\n');
        else if (e.type === 'stage-progress' && e.done > 0 && e.done < e.total) {
          const now = Date.now();
          if (now - (lastLogged.get(e.stage) ?? 0) > 10_000) {
            lastLogged.set(e.stage, now);
            stream.write(`  ${e.stage}: ${e.done}/${e.total}\n`);
          }
        }
      },
      stop() {},
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: ' {stage} [{bar}] {value}/{total} | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  return {
    sink(e) {
      if (e.type === 'stage-start' && e.total != null) bars.set(e.stage, multi.create(e.total, 0, { stage: e.stage.padEnd(20) }));
      else if (e.type === 'stage-progress') bars.get(e.stage)?.update(e.done);
      else if (e.type === 'stage-end') {
        const bar = bars.get(e.result.stage);
        if (bar) {
          multi.remove(bar);
          bars.delete(e.result.stage);
        }
        multi.log(describeResult(e.result) + '\n');
      }
    },
    stop() {
      // MultiBar.log() buffers lines until the next redraw; force one so the last results print.
      multi.update();
      multi.stop();
    },
  };
}
