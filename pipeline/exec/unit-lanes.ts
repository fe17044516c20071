/**
 * How wide a row stage's unit pool is, lane by lane. A stage whose crossed elements are served
 * apart (each a model with its own declared concurrency) lists a width per element name
 * (`laneWidths`): its units run in one lane per element, each as wide as declared, so the units of
 * a model whose slots are all taken wait in their own lane while the others' run. Units whose
 * element is not listed share one lane of `concurrency` (4 when unset). However wide the lanes, at
 * most MAX_UNITS_IN_FLIGHT units of a stage are in flight, which bounds its memory.
 */
import type { StageDecl } from '../dag/define.ts';

export const MAX_UNITS_IN_FLIGHT = 1024;
const DEFAULT_WIDTH = 4;
/** The lane of units whose crossed element has no width of its own. */
const SHARED = '\u0000shared';

/** The name a crossed element is known by: its `name`, or itself when it is a string. */
export function elementName(cross: unknown): string | null {
  if (typeof cross === 'string') return cross;
  if (typeof cross === 'object' && cross !== null && typeof (cross as { name?: unknown }).name === 'string')
    return (cross as { name: string }).name;
  return null;
}

/** The units by lane, each lane in plan order. */
export function unitLanes<U extends { cross: unknown }>(units: readonly U[], decl: Pick<StageDecl, 'laneWidths'>): Map<string, U[]> {
  const lanes = new Map<string, U[]>();
  for (const u of units) {
    const name = elementName(u.cross);
    const lane = name !== null && decl.laneWidths && Object.hasOwn(decl.laneWidths, name) ? name : SHARED;
    let queue = lanes.get(lane);
    if (!queue) lanes.set(lane, (queue = []));
    queue.push(u);
  }
  return lanes;
}

/** Each lane's workers: its declared width, no more than its units, all lanes together within MAX_UNITS_IN_FLIGHT. */
export function laneWidths(
  lanes: ReadonlyMap<string, readonly unknown[]>,
  decl: Pick<StageDecl, 'laneWidths' | 'concurrency'>,
): Map<string, number> {
  const widths = new Map<string, number>();
  for (const [lane, units] of lanes) {
    const declared = lane === SHARED ? (decl.concurrency ?? DEFAULT_WIDTH) : decl.laneWidths![lane]!;
    widths.set(lane, Math.max(1, Math.min(Math.floor(declared), units.length)));
  }
  const sum = [...widths.values()].reduce((a, b) => a + b, 0);
  if (sum > MAX_UNITS_IN_FLIGHT) {
    for (const [lane, w] of widths) widths.set(lane, Math.max(1, Math.floor((w * MAX_UNITS_IN_FLIGHT) / sum)));
  }
  return widths;
}
