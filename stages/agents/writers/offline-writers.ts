/**
 * The simulated builder's writers as models in the roster: they answer Prompts 2 and 3 from the
 * prompt alone, with the deterministic vignette and narrative writers. Labelled simulated
 * wherever their text appears (the generator column, the model name).
 */
import type { OfflineHandler, ChatRequest } from '../../../pipeline/llm/types.ts';
import { writeVignette, VIGNETTE_GENERATOR } from './vignette-writer.ts';
import { writeNarrative, NARRATIVE_GENERATOR } from './narrative-writer.ts';
import { readConditionPathPrompt, readNarrativePrompt } from '../../construct/prompt-inputs.ts';

function lastUserText(req: ChatRequest): string {
  const m = [...req.messages].reverse().find((x) => x.role === 'user');
  if (!m || typeof m.content !== 'string') throw new Error('no user message to answer');
  return m.content;
}

export const offlineVignetteWriter: OfflineHandler = (req) => {
  const v = writeVignette(readConditionPathPrompt(lastUserText(req)));
  if (v.problems.length) throw new Error(v.problems.join('; '));
  return v.vignette;
};

export const offlineNarrativeWriter: OfflineHandler = (req) => {
  const { cdp } = readNarrativePrompt(lastUserText(req));
  const n = writeNarrative(cdp);
  if (n.problems.length) throw new Error(n.problems.join('; '));
  return JSON.stringify(n.steps, null, 2);
};

export const OFFLINE_WRITERS = { [VIGNETTE_GENERATOR]: offlineVignetteWriter, [NARRATIVE_GENERATOR]: offlineNarrativeWriter };
