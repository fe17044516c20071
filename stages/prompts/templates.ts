/**
 * Loading and rendering the benchmarks' prompt templates (MEGA-CDP's from its paper, Appendix E;
 * CPGBench's written for this project, see templates/CPGBENCH.md).
 *
 * Language. A guideline is prompted with the template of its own language when one exists, else
 * with the paper's English template: the paper prints only English templates and applies them to
 * its Chinese guidelines too. The lookup tries `templates/<language>/<file>`, then the primary
 * subtag (`zh-CN` → `zh`), then `en`. To supply a template for another language, drop a file with
 * the same name under `templates/<language>/` (e.g. `templates/zh/4-single-turn-inference.md`); it
 * must contain every placeholder the English one declares, and may open with an HTML comment,
 * which is not sent.
 *
 * Identity. `Template.identity` is the path relative to the templates root with the language
 * actually used ("en/4-single-turn-inference.md"); it carries no content hash (the runner hashes
 * content itself) and no machine-specific prefix, so results can say which template ran.
 *
 * Roles. Prompts 1–5, 8 and 9 are sent as one user message. Prompt 6 is the doctor's system
 * message and Prompt 7 the patient's: the multi-turn loop renders each once per case and then
 * sends the dialogue as alternating turns (see dialogue-messages.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promptSpec, type PromptRole, type TemplateId } from './prompt-registry.ts';

export type { PromptId, TemplateId } from './prompt-registry.ts';

export const DEFAULT_TEMPLATES_ROOT = join(dirname(fileURLToPath(import.meta.url)), 'templates');

export interface Template {
  id: TemplateId;
  /** The paper's number of the prompt in the language used (CPGBench's conversation prompt: 7, 8 or 9). */
  number: number;
  /** Whether the text is the paper's or was written for this project (prompt-registry.ts). */
  provenance: 'paper' | 'written-for-this-project';
  title: string;
  /** The language asked for (the guideline's). */
  requestedLanguage: string;
  /** The language whose file was used; 'en' when no translation exists. */
  language: string;
  /** Absolute path of the file read. */
  sourcePath: string;
  /** `<language>/<file>`, relative to the templates root: which template ran. */
  identity: string;
  placeholders: readonly string[];
  role: PromptRole;
  /** The prompt text with its placeholders, without the file's header comment. */
  text: string;
}

export interface LoadOptions {
  /** Directory holding `<language>/<file>` folders; defaults to this module's `templates/`. */
  root?: string;
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

export function loadTemplate(id: TemplateId, language: string, options: LoadOptions = {}): Template {
  const spec = promptSpec(id);
  if (!LANGUAGE_TAG.test(language)) {
    throw new Error(`language "${language}" for prompt ${id} is not a language tag like "en", "zh" or "zh-CN"`);
  }
  const root = options.root ?? DEFAULT_TEMPLATES_ROOT;
  const candidates = [...new Set([language, language.split('-')[0], 'en'])];
  const used = candidates.find((lang) => existsSync(join(root, lang, spec.file)));
  if (!used) {
    throw new Error(
      `no template file ${spec.file} for prompt ${id} under ${root} (tried ${candidates.join(', ')}); the English templates ship in stages/prompts/templates/en/`,
    );
  }
  const sourcePath = join(root, used, spec.file);
  const identity = `${used}/${spec.file}`;
  const text = stripHeader(readFileSync(sourcePath, 'utf8'));
  for (const name of spec.placeholders) {
    if (!text.includes(`{${name}}`)) {
      throw new Error(
        `template ${identity} lacks the placeholder {${name}} that prompt ${id} declares; every translation must keep all of ${spec.placeholders.map((n) => `{${n}}`).join(', ')}`,
      );
    }
  }
  return {
    id,
    number: spec.numberByLanguage?.[used] ?? spec.number,
    provenance: spec.provenance,
    title: spec.title,
    requestedLanguage: language,
    language: used,
    sourcePath,
    identity,
    placeholders: spec.placeholders,
    role: spec.role,
    text,
  };
}

/** Drops a leading HTML comment (the provenance header) and one trailing newline. */
function stripHeader(file: string): string {
  let text = file.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (text.startsWith('<!--')) {
    const end = text.indexOf('-->');
    if (end < 0) throw new Error('template file opens an HTML comment "<!--" and never closes it with "-->"');
    text = text.slice(end + 3).replace(/^\n/, '');
  }
  return text.replace(/\n$/, '');
}

/**
 * Fills the template's declared placeholders, and only those: any other brace text (Prompt 1's
 * JSON examples) is left alone. Substitution is a single pass over the template, so a value that
 * itself contains "{Guideline}" is inserted literally and never expanded.
 */
export function renderTemplate(t: Template, vars: Readonly<Record<string, string | number>>): string {
  const declared = new Set(t.placeholders);
  for (const name of Object.keys(vars)) {
    if (!declared.has(name)) {
      throw new Error(
        `template ${t.identity} (prompt ${t.id}) has no placeholder {${name}}; it takes ${t.placeholders.map((n) => `{${n}}`).join(', ')}`,
      );
    }
  }
  const values = new Map<string, string>();
  for (const name of t.placeholders) {
    const v = vars[name];
    if (v === undefined || v === null) {
      throw new Error(`template ${t.identity} (prompt ${t.id}) needs a value for {${name}}; pass it in the variables`);
    }
    if (typeof v === 'number' && !Number.isFinite(v)) {
      throw new Error(`template ${t.identity} (prompt ${t.id}): {${name}} is ${v}, not a finite number`);
    }
    values.set(name, String(v));
  }
  const parts = partsOf(t);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) out += (values.get(parts[i]!) ?? `{${parts[i]}}`) + parts[i + 1]!;
  return out;
}

/** A template's text split once into literal, placeholder name, literal, …: a judge renders one per call. */
const PARTS = new WeakMap<Template, readonly string[]>();
function partsOf(t: Template): readonly string[] {
  let parts = PARTS.get(t);
  if (!parts) PARTS.set(t, (parts = t.text.split(/\{([A-Za-z][A-Za-z0-9_]*)\}/)));
  return parts;
}
