/**
 * What the reports say about who produced a run, from its run_facts rows (run-facts.ts): the
 * one-line "Produced by" of the index and the scorecard, and the index's list of the corpus,
 * the builders and the models in their roles. Pure.
 */
import { RunFacts, type FactKind, type FactRow } from './run-facts.ts';

const label = (f: FactRow) => `${f.name}${f.simulated ? ' (simulated)' : ''}`;
const list = (xs: readonly string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

function corpusText(facts: RunFacts): string {
  const c = facts.corpus;
  if (!c) return 'an unrecorded corpus';
  const n = `${c.count} guideline${c.count === 1 ? '' : 's'}`;
  return c.detail === 'bundled sample' ? `the bundled sample (${c.name}, ${n})` : `the corpus ${c.name} (${n})`;
}

/** "imported from the corpus" or "built by X" (several builders listed) for one construction role. */
function builtBy(facts: RunFacts, fact: FactKind): string | null {
  const rows = facts.of(fact);
  if (!rows.length) return null;
  return rows.map((f) => (f.name === 'imported' ? 'imported from the corpus' : `by ${label(f)}`)).join(' and ');
}

/** How the benchmark was built: "trees imported from the corpus, vignettes by …, narratives by …". */
export function builtText(facts: RunFacts): string {
  const parts = (
    [
      ['trees', 'tree builder'],
      ['vignettes', 'vignette writer'],
      ['narratives', 'narrative writer'],
    ] as const
  ).flatMap(([what, fact]) => {
    const b = builtBy(facts, fact);
    return b ? [[what, b] as const] : [];
  });
  if (!parts.length) return 'no tree, vignette or narrative recorded';
  const by = new Set(parts.map(([, b]) => b));
  if (by.size === 1 && parts.length > 1) return `${list(parts.map(([w]) => w))} ${parts[0]![1]}`;
  return parts.map(([w, b]) => `${w} ${b}`).join(', ');
}

/** "real models: a, b; simulated reference agents: …", "simulated agents only, no LLM results (…)", or none; `brief` counts long lists of agents. */
export function evaluatedText(facts: RunFacts, brief = false): string {
  const real = facts.realModels;
  const sim = facts.simulatedModels;
  const imported = new Set(
    facts
      .of('evaluated model')
      .filter((f) => f.detail === 'imported')
      .map((f) => f.name!),
  );
  const named = (m: string) => (imported.has(m) ? `${m} (imported predictions)` : m);
  const agents = brief && sim.length > 3 ? `${sim.length} agents` : sim.map(named).join(', ');
  if (!real.length && !sim.length) return 'no evaluated model (no predicted pathway in this run)';
  if (!real.length) return `simulated agents only, no LLM results (${agents})`;
  return `real models: ${real.map(named).join(', ')}` + (sim.length ? `; simulated reference agents: ${agents}` : '');
}

/** The one line: "the bundled sample (data/sample, 6 guidelines), trees imported …; evaluated: …". */
export function producedBy(facts: RunFacts): string {
  return `${corpusText(facts)}; ${builtText(facts)}; evaluated: ${evaluatedText(facts, true)}`;
}

/** The index's list: corpus, construction, QC inspection, evaluated models, patient, judges. */
export function factLines(facts: RunFacts): string[] {
  const names = (fact: FactKind, none: string, extra: (f: FactRow) => string = () => '') =>
    facts
      .of(fact)
      .map((f) => `${label(f)}${extra(f)}`)
      .join(', ') || none;
  const judgeKind = (f: FactRow) => (f.detail ? ` [${f.detail}]` : '');
  return [
    `- Corpus: ${corpusText(facts)}`,
    `- Trees: ${builtBy(facts, 'tree builder') ?? 'none recorded'}`,
    `- Vignettes: ${builtBy(facts, 'vignette writer') ?? 'none recorded'}`,
    `- Narratives: ${builtBy(facts, 'narrative writer') ?? 'none recorded'}`,
    `- QC inspection: ${facts.of('QC inspector').length ? names('QC inspector', '') : 'none (no inspector in this run)'}`,
    `- Evaluated: ${evaluatedText(facts)}`,
    `- Patient (multi-turn): ${names('patient', 'none (no dialogue in this run)')}`,
    `- Judges: ${names('judge', 'none (no pathway judged in this run)', judgeKind)}`,
  ];
}
