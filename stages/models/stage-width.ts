/**
 * How many units of an LLM stage are in flight, from what the models file declares for the
 * models the stage calls (issue 23 item 1). A live model's units get a lane of their own
 * (StageDecl.laneWidths) twice as wide as the requests the model may have in flight (its declared
 * concurrency on each of its replicas): the client's per-model semaphore and rpm/tpm buckets are
 * what bound the requests, and the second unit behind each slot keeps the slot busy while the
 * first one's answer is made durable or its rows written. Units waiting on one model's slots wait
 * in that model's lane, never in front of another model's units. A model the client answers
 * in-process (an offline stand-in) has no server to keep busy: its units share the stage's
 * `concurrency`, OFFLINE_WIDTH.
 */
import { DEFAULT_CONCURRENCY } from '../../pipeline/llm/providers/live.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';

/** Units in flight for the models answered in-process (as many as the runner's default stages had). */
export const OFFLINE_WIDTH = 8;
/** Units in flight per request slot of a live model. */
export const UNITS_PER_SLOT = 2;
/** A model answered through the Batch API: its next batch collects every unit the runner lets wait (it caps a stage at 1024). */
const BATCH_WIDTH = 1024;

/**
 * The requests a live model may have in flight: its concurrency (the live provider's default when
 * unset) on each replica; null for one answered in-process, inactive or not in the roster.
 */
export function requestSlots(roster: readonly ModelSpec[], name: string): number | null {
  const spec = roster.find((m) => m.name === name);
  if (!spec || spec.provider !== 'openai-compatible' || spec.active === false) return null;
  if (spec.batch) return BATCH_WIDTH / UNITS_PER_SLOT;
  return (spec.concurrency ?? DEFAULT_CONCURRENCY) * Math.max(1, spec.baseURLs?.length ?? 1);
}

/** A lane per live model among `names` (the crossed elements' names), each UNITS_PER_SLOT × its request slots wide. */
export function laneWidthsFor(roster: readonly ModelSpec[], names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) {
    const slots = requestSlots(roster, name);
    if (slots !== null) out[name] = UNITS_PER_SLOT * slots;
  }
  return out;
}

/** The width of a stage whose every unit calls the one model `name` (null: none), e.g. the builder's. */
export function widthFor(roster: readonly ModelSpec[], name: string | null): number {
  const slots = name === null ? null : requestSlots(roster, name);
  return slots === null ? OFFLINE_WIDTH : UNITS_PER_SLOT * slots;
}

/** The lanes and shared width of a stage crossing `names`: what dag.config.ts declares on it. */
export function crossedWidth(
  roster: readonly ModelSpec[],
  names: readonly string[],
): { concurrency: number; laneWidths: Record<string, number> } {
  return { concurrency: OFFLINE_WIDTH, laneWidths: laneWidthsFor(roster, names) };
}
