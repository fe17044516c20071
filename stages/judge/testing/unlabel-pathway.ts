/**
 * The inverse of the pathway labelling of Prompts 5 and 8 (stages/prompts/pathway-labels.ts):
 * reads "R1: …", "R2: …" (or "C1: …") lines back into the list of steps. Test support: a scripted
 * judge behind a local server sees only the prompt, as a real one does, and reads its pathways
 * back with this. (Offline judges answer from the call's context instead: judge-context.ts.)
 *
 * Round trip: unlabelPathway(formatPathway(steps, side), side) returns each step with its
 * whitespace folded to single spaces and trimmed, which is what the judge was shown.
 */
import type { PathwaySide } from '../../prompts/pathway-labels.ts';

function labelled(line: string, side: PathwaySide, k: number): string | null {
  const prefix = `${side}${k}:`;
  if (!line.startsWith(prefix)) return null;
  // formatPathway writes "R1: text"; an empty step leaves "R1: " (or "R1:" if a transport trimmed it).
  const rest = line.slice(prefix.length);
  return rest.startsWith(' ') ? rest.slice(1) : rest;
}

/** The steps of one labelled block; every line must carry the next label in sequence. */
export function unlabelPathway(block: string, side: PathwaySide): string[] {
  const lines = block.replace(/\r\n/g, '\n').split('\n');
  return lines.map((line, i) => {
    const step = labelled(line, side, i + 1);
    if (step === null) {
      throw new Error(
        `line ${i + 1} of the labelled ${side === 'R' ? 'reference' : 'candidate'} pathway does not start with "${side}${i + 1}:" (${JSON.stringify(line.slice(0, 40))}); pass the block formatPathway produced`,
      );
    }
    return step;
  });
}

/**
 * The reference and candidate pathways of a rendered Prompt 5 or 8, found as the last run of
 * consecutive lines labelled R1, R2, … and the last run labelled C1, C2, …. The template's own
 * lines never start with "R<k>:" ("R1-C1: 5" has a dash), and formatPathway folds line breaks
 * inside a step, so a step cannot fake a label line. Null when either run is absent.
 */
export function findLabelledPathways(prompt: string): { reference: string[]; candidate: string[] } | null {
  const lines = prompt.replace(/\r\n/g, '\n').split('\n');
  const lastRun = (side: PathwaySide): string[] | null => {
    let found: string[] | null = null;
    for (let i = 0; i < lines.length; i++) {
      if (labelled(lines[i], side, 1) === null) continue;
      const run: string[] = [];
      let k = 1;
      let step: string | null;
      while (i < lines.length && (step = labelled(lines[i], side, k)) !== null) {
        run.push(step);
        i++;
        k++;
      }
      i--;
      found = run;
    }
    return found;
  };
  const reference = lastRun('R');
  const candidate = lastRun('C');
  return reference && candidate ? { reference, candidate } : null;
}
