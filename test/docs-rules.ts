// The rules the README and the docs/ pages keep (issue 22, item 9), as pure functions over
// text, so that test/docs.test.ts can show each one failing on a made-up page.

/** Text with fenced code blocks and inline code spans blanked out: links and headings there are not links or headings. */
export function proseOf(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

/**
 * GitHub's anchor for a heading: the text without Markdown (links keep their text), lower-cased,
 * every character that is not a letter, digit, space, '-' or '_' dropped, each space a '-'.
 */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page offers: one per heading, a repeated one suffixed -1, -2, … as GitHub does. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const code = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));
  for (const [, text] of code.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Relative link targets (`[text](target)`, images too), outside code; URLs with a scheme are not relative. */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  proseOf(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line: i + 1, target });
      }
    });
  return links;
}

/**
 * A benchmark figure, in the forms the README used to print them: a decimal number with a unit
 * of time or memory ("24.2 s", "3.8 min", "2.2 GiB": a setting is a whole number, "600 s", a
 * measurement has decimals), a range of durations ("23–24 s": a spread over runs), or a
 * speed-up ("240× faster", "3 times slower", "a 20× speed-up"). Such numbers belong in bench/RESULTS.md only.
 */
export const FIGURE_PATTERNS: readonly RegExp[] = [
  /\b\d+\.\d+\s?(?:ms|s|min|h|KiB|MiB|GiB|KB|MB|GB)\b/,
  /\b\d+(?:\.\d+)?\s?[–-]\s?\d+(?:\.\d+)?\s?(?:ms|s|min)\b/,
  /\b\d+(?:\.\d+)?\s?(?:×|x|times)\s?(?:faster|slower|quicker|speed-?up)\b/i,
];

export interface Figure {
  line: number;
  text: string;
}

export function benchmarkFigures(markdown: string): Figure[] {
  const found: Figure[] = [];
  markdown.split('\n').forEach((text, i) => {
    for (const pattern of FIGURE_PATTERNS) {
      for (const m of text.matchAll(new RegExp(pattern.source, pattern.flags + 'g'))) found.push({ line: i + 1, text: m[0] });
    }
  });
  return found;
}

/** The command lines of the shell fenced blocks (```sh, ```bash or no language), comments and blank lines left out. */
export function fencedCommands(markdown: string): string[] {
  const commands: string[] = [];
  let fence: { shell: boolean } | undefined;
  for (const line of markdown.split('\n')) {
    const opening = /^```\s*(\S*)/.exec(line);
    if (opening && !fence) fence = { shell: ['', 'sh', 'bash', 'shell'].includes(opening[1]) };
    else if (opening) fence = undefined;
    else if (fence?.shell) {
      const command = line.replace(/(^|\s)#.*$/, '').trim();
      if (command) commands.push(command);
    }
  }
  return commands;
}

/** The commands a shell script runs, in order: its lines without comments, `set` and `cd`. */
export function scriptCommands(script: string): string[] {
  return script
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line && !/^(set|cd)\b/.test(line));
}
