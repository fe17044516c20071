// mupdf reports repairs and content-stream errors through a global log callback (by default to
// stderr). We collect them per call instead: they tell a truncated or damaged file from a clean
// one, and they belong in the document's warnings rather than in the CLI's output.
import * as mupdf from 'mupdf';

let sink: string[] | null = null;
mupdf.setLog({
  warning: (m: string) => sink?.push(m),
  error: (m: string) => sink?.push(m),
});

/** Runs `fn` synchronously and returns what mupdf logged meanwhile. */
export function withMupdfLog<T>(fn: () => T): { value: T; messages: string[] } {
  const outer = sink;
  const messages: string[] = [];
  sink = messages;
  try {
    return { value: fn(), messages };
  } finally {
    sink = outer;
    outer?.push(...messages);
  }
}

/** mupdf had to rebuild the cross-reference table: the file is damaged or truncated. */
export function wasRepaired(messages: string[]): boolean {
  return messages.some((m) => /repair|cannot find startxref/i.test(m));
}
