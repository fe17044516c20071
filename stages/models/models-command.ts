/**
 * `cdp models [--json] [--check]`: every declared model, its roles and what it does in this run
 * (or why it is not used), its endpoint (never the key), context window and price; then who
 * plays each role, and the configuration's warnings and problems. `--check` sends one tiny
 * request to every usable model and reports the server's own context window where it gives one.
 */
import { checkModel, type ModelCheck } from '../../pipeline/llm/check-model.ts';
import type { Options } from '../../pipeline/index.ts';
import { readServerWindows, recordServerWindows, serverWindowOf } from '../../pipeline/llm/server-windows.ts';
import { modelsOf, type RunModels } from './run-roster.ts';
import type { RunModel } from './models-file.ts';

/** The paper required a 40K context: its long guidelines do not fit in less. */
export const PAPER_CONTEXT_FLOOR = 40_000;

export interface ModelListing {
  name: string;
  roles: string[];
  active: boolean;
  /** Why the model is not used, or what it does in this run. */
  reason: string;
  endpoint: string[];
  model: string;
  contextWindow: number | null;
  contextWindowAssumed: boolean;
  price: { inputPerMTok: number; outputPerMTok: number } | null;
  paper: string | null;
  declaredIn: string;
  check?: ModelCheck;
  /** The window the server reported when last checked (recorded in the store), if it was. */
  serverContextWindow?: number;
}

function uses(m: RunModel, r: RunModels): string[] {
  const out: string[] = [];
  if (r.builder.real && r.builder.trees?.name === m.name) out.push('builds the benchmark');
  if (r.evaluated.some((e) => e.name === m.name)) out.push('evaluated');
  if (r.patient.name === m.name && !r.offline) out.push('plays the patient');
  if (r.judges.some((j) => j.name === m.name && !j.simulated)) out.push('judges');
  return out;
}

export function listModels(r: RunModels): ModelListing[] {
  return r.declared.map((m) => {
    const used = uses(m, r);
    const reason = !m.active
      ? (m.inactiveReason ?? 'inactive')
      : used.length
        ? used.join(', ')
        : 'declared, but no role of it is needed in this run';
    return {
      name: m.name,
      roles: [...m.roles],
      active: !!m.active && used.length > 0,
      reason,
      endpoint: m.baseURLs ?? [],
      model: m.modelId ?? m.name,
      contextWindow: m.contextWindow ?? null,
      contextWindowAssumed: !!m.windowAssumed,
      price: m.price ?? null,
      paper: m.paper ?? null,
      declaredIn: m.declaredIn,
    };
  });
}

/** Warnings about windows known before anything is sent. */
export function windowWarnings(listing: readonly ModelListing[]): string[] {
  const out: string[] = [];
  for (const m of listing) {
    if (!m.active) continue;
    const served = m.serverContextWindow ?? m.check?.serverContextWindow ?? undefined;
    const declared = m.contextWindowAssumed ? undefined : (m.contextWindow ?? undefined);
    const window = served !== undefined && (declared === undefined || declared > served) ? served : m.contextWindow;
    if (m.contextWindowAssumed && served === undefined)
      out.push(
        `${m.name}: no contextWindow declared, ${m.contextWindow} tokens assumed; prompts over it are refused before sending (set "contextWindow", or run cdp models --check to read the server's)`,
      );
    else if (window !== null && window < PAPER_CONTEXT_FLOOR)
      out.push(
        `${m.name}: a ${window}-token window is below the paper's 40K floor; long guidelines will be failure rows "context overflow" (cdp estimate counts them)`,
      );
    if (served !== undefined && declared !== undefined && served < declared) {
      out.push(
        `${m.name}: the server serves ${served} tokens, less than the declared ${declared}; runs and estimates on this store use the server's ${served} (recorded by cdp models --check)`,
      );
    }
  }
  return out;
}

const names = (models: readonly { name: string }[]) => models.map((m) => m.name);

function roleLines(r: RunModels): string[] {
  const sim = (list: readonly string[]) => (list.length ? list.join(', ') : '—');
  const simulatedAgents = r.evaluated.some((m) => m.simulated);
  return [
    `builder:    ${r.builder.real ? r.builder.trees!.name : `none: trees imported from the corpus, vignettes and narratives by ${r.builder.vignettes.name}, ${r.builder.narratives.name}`}`,
    `evaluated:  ${sim(names(r.evaluated))}`,
    `patient:    ${r.offline ? r.simulatedPatient.name : r.patient.name}${simulatedAgents && !r.offline ? ` (simulated agents: ${r.simulatedPatient.name})` : ''}`,
    `judges:     ${sim(names(r.judges))}`,
  ];
}

function windowCell(m: ModelListing): string {
  const served = m.serverContextWindow;
  if (served !== undefined && (m.contextWindowAssumed || (m.contextWindow ?? Infinity) > served)) return `${served} (server)`;
  if (m.contextWindow === null) return '?';
  return `${m.contextWindow}${m.contextWindowAssumed ? ' (assumed)' : ''}`;
}

function table(listing: readonly ModelListing[]): string {
  if (!listing.length) return '(no models declared: every role is played by the offline stand-ins)\n';
  const head = ['name', 'roles', 'used', 'endpoint', 'model', 'window', 'price in/out per MTok', 'status'];
  const rows = listing.map((m) => [
    m.name,
    m.roles.join(','),
    m.active ? 'yes' : 'no',
    m.endpoint.join(' '),
    m.model,
    windowCell(m),
    m.price && (m.price.inputPerMTok || m.price.outputPerMTok) ? `${m.price.inputPerMTok}/${m.price.outputPerMTok}` : 'not set',
    m.check ? `${m.check.ok ? 'ok' : 'FAILED'}: ${m.check.detail}` : m.reason,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

/**
 * `env`: where `--check` reads the keys it sends (at call time, as the client does). `store`:
 * where the windows servers report are recorded (server-windows.ts), so that later runs and
 * estimates use them.
 */
export async function modelsCommand(
  options: Options,
  o: { json?: boolean; check?: boolean; store?: string },
  out: (s: string) => void,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const r = modelsOf(options);
  const listing = listModels(r);
  if (o.check) {
    const specs = listing.map((m) => r.declared.find((d) => d.name === m.name)!);
    const checks = await Promise.all(listing.map((m, i) => (m.active ? checkModel(specs[i], env) : Promise.resolve(undefined))));
    listing.forEach((m, i) => checks[i] && (m.check = checks[i]));
    if (o.store) {
      const read = checks.flatMap((c, i) => (c?.serverContextWindow ? [{ spec: specs[i], window: c.serverContextWindow }] : []));
      recordServerWindows(o.store, read);
    }
  }
  if (o.store) {
    const recorded = readServerWindows(o.store);
    for (const m of listing) {
      const spec = r.declared.find((d) => d.name === m.name)!;
      const w = serverWindowOf(spec, recorded);
      if (w) m.serverContextWindow = w.window;
    }
  }
  const warnings = [...r.warnings, ...windowWarnings(listing)];
  const failedChecks = listing.filter((m) => m.check && !m.check.ok).length;
  if (o.json) {
    const roles = {
      builder: r.builder.real ? r.builder.trees!.name : null,
      evaluated: names(r.evaluated),
      patient: r.offline ? r.simulatedPatient.name : r.patient.name,
      judges: names(r.judges),
      simulated: r.simulated,
    };
    out(JSON.stringify({ source: r.source, models: listing, roles, warnings, problems: r.problems }) + '\n');
  } else {
    out(`models: ${r.source.path ?? 'none'} (${r.source.via})\n\n${table(listing)}\n${roleLines(r).join('\n')}\n`);
    for (const w of warnings) out(`warning: ${w}\n`);
    for (const p of r.problems) out(`problem: ${p}\n`);
  }
  return r.problems.length || failedChecks ? 1 : 0;
}
