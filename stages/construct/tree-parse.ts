/**
 * Reading Prompt 1's answer (already extracted from the model's text as JSON) into a
 * `ReasoningTree`. This checks the shape only — types and keys; whether the tree makes sense
 * (two children per decision, unique indices, a known focus, evidence present and verbatim)
 * is `validateTree`'s job, so a tree that comes from storage or a test is checked the same way.
 *
 * Deviations a human reads without doubt are tolerated and recorded in `format` (answer-format.ts
 * labels), never reported as problems: a leaf written without `"leaf": true` (it has a conclusion
 * and no children: 'lenient-json:implied-leaf'); an index written as an integer string
 * (`"index": "1"`) and `node_guideline_mapping` keys spelled " 1" or "1.0", canonicalised to the
 * integer ('lenient-json:string-number'); `"leaf": "true"` / `"false"`
 * ('lenient-json:string-boolean'); a focus in another case or with spaces ("Management",
 * 'lenient-json:focus-case'). Trailing commas and comments are the extractor's (extractJson).
 * Everything else that departs from Prompt 1's shape is reported as a problem, and the tree is
 * still read as far as possible so it can be stored and inspected. The tree is null only when
 * there is no decision tree to read.
 */
import type { ReasoningTree, TreeNodeJson, ClinicalFocus } from './types.ts';
import { FOCI } from './types.ts';
import { type AnswerFormat, formatOf, type FormatVariant } from '../../pipeline/stage.ts';

export interface ParsedTree {
  /** Best-effort reading; trustworthy only when `problems` is empty. */
  tree: ReasoningTree | null;
  problems: string[];
  /** 'strict', or the tolerated deviations (see the module comment). */
  format: AnswerFormat;
}

const TOP_KEYS = new Set(['primary_clinical_focus', 'decision_tree', 'node_guideline_mapping']);
const NODE_KEYS = new Set(['index', 'leaf', 'conclusion', 'description', 'yes', 'no']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v === 'object' ? 'an object' : `the ${typeof v} ${String(v)}`}`;
}

export function parseTree(raw: unknown): ParsedTree {
  const problems: string[] = [];
  const variants: FormatVariant[] = [];
  if (!isPlainObject(raw)) {
    return {
      tree: null,
      problems: [`the answer is ${describe(raw)}, not the JSON object Prompt 1 asks for; re-extract or re-ask the model`],
      format: formatOf(variants),
    };
  }
  for (const key of Object.keys(raw)) {
    if (!TOP_KEYS.has(key))
      problems.push(
        `unexpected top-level key ${JSON.stringify(key)} (Prompt 1 has primary_clinical_focus, decision_tree, node_guideline_mapping)`,
      );
  }

  let focus = '';
  if (typeof raw.primary_clinical_focus === 'string') {
    focus = raw.primary_clinical_focus;
    const canon = focus.trim().toLowerCase();
    if (canon !== focus && (FOCI as readonly string[]).includes(canon)) {
      focus = canon;
      variants.push('lenient-json:focus-case');
    }
  } else
    problems.push(
      `primary_clinical_focus is ${raw.primary_clinical_focus === undefined ? 'missing' : describe(raw.primary_clinical_focus)}; expected one of diagnosis, classification, screening, management`,
    );

  if (!isPlainObject(raw.decision_tree)) {
    problems.push(
      `decision_tree is ${raw.decision_tree === undefined ? 'missing' : describe(raw.decision_tree)}; expected a node object with an index`,
    );
    return { tree: null, problems, format: formatOf(variants) };
  }
  const decisionTree = readNodes(raw.decision_tree, problems, variants);
  const mapping = readMapping(raw.node_guideline_mapping, problems, variants);

  return {
    // An unknown focus is kept as written; validateTree reports it.
    tree: { primary_clinical_focus: focus as ClinicalFocus, decision_tree: decisionTree, node_guideline_mapping: mapping },
    problems,
    format: formatOf(variants),
  };
}

/** Iterative so a deep tree cannot overflow the stack. */
function readNodes(rootRaw: Record<string, unknown>, problems: string[], variants: FormatVariant[]): TreeNodeJson {
  interface Pending {
    raw: Record<string, unknown>;
    attach: (n: TreeNodeJson) => void;
    where: string;
  }
  let root: TreeNodeJson | undefined;
  const seen = new Set<object>();
  const stack: Pending[] = [
    {
      raw: rootRaw,
      attach: (n) => {
        root = n;
      },
      where: 'the root',
    },
  ];

  while (stack.length > 0) {
    const { raw, attach, where } = stack.pop()!;
    const out: TreeNodeJson = { index: Number.NaN };
    attach(out);
    if (seen.has(raw)) {
      problems.push(`${where} is an object already seen higher in the tree (a cycle); it was cut`);
      continue;
    }
    seen.add(raw);

    const idx = raw.index;
    if (typeof idx === 'number') out.index = idx;
    else if (typeof idx === 'string' && /^\s*-?\d+\s*$/.test(idx)) {
      out.index = Number(idx);
      variants.push('lenient-json:string-number');
    } else problems.push(`${where}: index is ${idx === undefined ? 'missing' : describe(idx)}; every node needs a numeric index`);
    const name = Number.isFinite(out.index) ? `node ${out.index}` : where;

    for (const key of Object.keys(raw)) {
      if (!NODE_KEYS.has(key))
        problems.push(`${name}: unexpected key ${JSON.stringify(key)} (nodes have index, leaf, conclusion, description, yes, no)`);
    }
    if (raw.leaf !== undefined) {
      if (typeof raw.leaf === 'boolean') out.leaf = raw.leaf;
      else if (typeof raw.leaf === 'string' && /^\s*(true|false)\s*$/i.test(raw.leaf)) {
        out.leaf = raw.leaf.trim().toLowerCase() === 'true';
        variants.push('lenient-json:string-boolean');
      } else problems.push(`${name}: leaf is ${describe(raw.leaf)}; expected true or false`);
    }
    for (const field of ['conclusion', 'description'] as const) {
      const v = raw[field];
      if (v === undefined) continue;
      if (typeof v === 'string') out[field] = v;
      else problems.push(`${name}: ${field} is ${describe(v)}; expected a string`);
    }
    const children: Array<['yes' | 'no', unknown]> = [
      ['no', raw.no],
      ['yes', raw.yes],
    ];
    for (const [branch, child] of children) {
      if (child === undefined) continue;
      if (isPlainObject(child)) {
        stack.push({
          raw: child,
          attach: (n) => {
            out[branch] = n;
          },
          where: `the ${branch} child of ${name}`,
        });
      } else {
        problems.push(`${name}: ${branch} is ${describe(child)}; expected a node object`);
      }
    }
    if (out.leaf === undefined && raw.yes === undefined && raw.no === undefined && out.conclusion !== undefined) {
      out.leaf = true;
      variants.push('lenient-json:implied-leaf');
    }
  }
  return root!;
}

function canonicalKey(key: string): string {
  const trimmed = key.trim();
  const n = trimmed === '' ? Number.NaN : Number(trimmed);
  return Number.isInteger(n) ? String(n) : key;
}

function readMapping(raw: unknown, problems: string[], variants: FormatVariant[]): Record<string, string[]> {
  const mapping: Record<string, string[]> = {};
  if (raw === undefined) {
    problems.push('node_guideline_mapping is missing; every node needs quoted guideline evidence');
    return mapping;
  }
  if (!isPlainObject(raw)) {
    problems.push(`node_guideline_mapping is ${describe(raw)}; expected an object from node index to a list of quoted sentences`);
    return mapping;
  }
  const firstKey = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    const canon = canonicalKey(key);
    if (canon !== key) variants.push('lenient-json:string-number');
    const label = `node_guideline_mapping[${JSON.stringify(key)}]`;
    if (canon === '__proto__') {
      problems.push(`${label} is not a node index (dropped)`);
      continue;
    }
    let quotes: string[];
    if (typeof value === 'string') {
      problems.push(`${label} is a single string; expected a list of quoted sentences (read as a list of one)`);
      quotes = [value];
    } else if (Array.isArray(value)) {
      quotes = [];
      value.forEach((q, i) => {
        if (typeof q === 'string') quotes.push(q);
        else problems.push(`${label}[${i}] is ${describe(q)}; expected a quoted sentence (dropped)`);
      });
    } else {
      problems.push(`${label} is ${describe(value)}; expected a list of quoted sentences (dropped)`);
      continue;
    }
    const earlier = firstKey.get(canon);
    if (earlier !== undefined) {
      problems.push(
        `node_guideline_mapping keys ${JSON.stringify(earlier)} and ${JSON.stringify(key)} both name node ${canon}; their quotes were merged`,
      );
      mapping[canon]!.push(...quotes);
    } else {
      firstKey.set(canon, key);
      mapping[canon] = quotes;
    }
  }
  return mapping;
}
