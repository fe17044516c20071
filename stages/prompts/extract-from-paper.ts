/**
 * One-off generator of `templates/en/*.md` from the paper's text (Appendix E, Tables 8–16).
 * Copying by program rather than by hand is what keeps the templates word for word; the output
 * is committed, so nothing reads the paper at run or test time.
 *
 *   npx tsx stages/prompts/extract-from-paper.ts /path/to/mega-cdp-paper.txt
 *
 * The only change to the printed characters is "$\geq$" → "≥": the text file carries the
 * paper's LaTeX source for that symbol, and the typeset paper (what the authors sent to models)
 * shows "≥". Everything else — curly quotes, ’, …, –, ×, the typo "- ach pair" in Prompt 8, the
 * lost indentation of nested bullets — is kept as printed.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROMPTS, templateHeader } from './prompt-registry.ts';

const LATEX: ReadonlyArray<[string, string]> = [['$\\geq$', '≥']];

/** The body of Prompt `number` as printed: the lines after its title up to the next table caption. */
export function extractPromptBody(paper: string, number: number, title: string): { body: string; deviations: string[] } {
  const lines = paper.split(/\r?\n/);
  const appendix = lines.findIndex((l) => l.trim() === 'Appendix E Prompt Templates');
  if (appendix < 0) throw new Error('the paper text has no line "Appendix E Prompt Templates"; is this the MEGA-CDP paper?');
  const titleLine = `Prompt ${number}: ${title}`;
  const start = lines.findIndex((l, i) => i > appendix && l.trim() === titleLine);
  if (start < 0) throw new Error(`no line "${titleLine}" after Appendix E in the paper text`);
  let end = lines.findIndex((l, i) => i > start && /^Table \d+:/.test(l));
  if (end < 0) end = lines.length;
  const body = lines.slice(start + 1, end);
  while (body.length && body[body.length - 1].trim() === '') body.pop();
  let text = body.join('\n');
  const deviations: string[] = [];
  for (const [latex, symbol] of LATEX) {
    if (text.includes(latex)) {
      text = text.split(latex).join(symbol);
      deviations.push(`"${latex}" (LaTeX in the paper's text file) is rendered as "${symbol}", as typeset in the paper.`);
    }
  }
  return { body: text, deviations };
}

function main(): void {
  const paperPath = process.argv[2];
  if (!paperPath) throw new Error('usage: tsx stages/prompts/extract-from-paper.ts <mega-cdp-paper.txt>');
  const paper = readFileSync(paperPath, 'utf8');
  const outDir = join(dirname(fileURLToPath(import.meta.url)), 'templates', 'en');
  mkdirSync(outDir, { recursive: true });
  for (const p of PROMPTS) {
    const { body, deviations } = extractPromptBody(paper, p.number, p.title);
    for (const name of p.placeholders) {
      if (!body.includes(`{${name}}`))
        throw new Error(`Prompt ${p.number} as printed has no {${name}}; the registry and the paper disagree`);
    }
    const notes = [...deviations, ...p.printedQuirks];
    writeFileSync(join(outDir, p.file), `${templateHeader(p, notes)}${body}\n`);
    console.log(`wrote ${p.file} (${body.length} chars)`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
