/**
 * The models file's schema, in zod: the types, every message a bad file gets, and the JSON Schema
 * committed as models/models.schema.json (a models file names it in `$schema`, and an editor then
 * completes and checks it). Each message says what the field must be and what it got; the
 * formatter (models-file-problems.ts) adds the file, the model and the field.
 *
 * Checks the JSON Schema cannot say (a URL that parses, a name's characters, two names equal up to
 * case, a calibration without the judge role) are refinements: they are in the messages, not in
 * the editor's squiggles.
 */
import { z } from 'zod';
import type { LlmRole } from '../../pipeline/llm/types.ts';
import { PAPER_MODEL_NAMES } from './paper-names.ts';

export const ROLES: readonly LlmRole[] = ['builder', 'evaluated', 'patient', 'judge'];

const got = (v: unknown): string => (v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)));

/** A message for a field's value of the wrong type, or "missing: …" when it is absent and required. */
const typed = (what: string, missing?: string) => (iss: { input?: unknown }) =>
  iss.input === undefined && missing ? `missing: ${missing}` : `${what}, got ${got(iss.input)}`;

const positiveInt = (description: string) => {
  const msg = typed('must be a positive integer');
  return z.int({ error: msg }).min(1, { error: msg }).optional().meta({ description });
};

const flag = (description: string) =>
  z
    .boolean({ error: typed('must be true or false') })
    .optional()
    .meta({ description });

const text = (description: string) => {
  const msg = typed('must be a non-empty string');
  return z.string({ error: msg }).trim().min(1, { error: msg }).optional().meta({ description });
};

/** Letters and digits of any script, and ` . _ - + ( ) : @`, starting with a letter or digit. */
const SAFE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._+()\-:@]*$/u;
const NAME_CHARS = 'letters, digits, spaces and . _ - + ( ) : @, starting with a letter or digit';

const name = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'missing or empty: every model needs the name its tables show' : `must be a string, got ${got(iss.input)}`,
  })
  .trim()
  .min(1, { error: 'missing or empty: every model needs the name its tables show' })
  .max(80, { error: (iss) => `${got(iss.input)} is longer than 80 characters; names label table columns and figures` })
  .refine((s) => !s || SAFE_NAME.test(s), {
    error: (iss) =>
      `${got(iss.input)} has characters a name may not have: a name labels tables, figures and file names, so it holds only ${NAME_CHARS} (the id the server knows goes in "model")`,
  })
  .refine((s) => !s.includes('simulated'), {
    error: '"simulated" is reserved for the offline stand-ins, so no reader mistakes one for the other',
  })
  .meta({ description: `The label every table and figure shows: ${NAME_CHARS}; unique, also up to case.` });

/** An http(s) URL as the OpenAI SDK takes it: a host, no spaces, no credentials, no query or fragment. */
export function urlProblem(s: string): string | null {
  if (/\s/.test(s)) return 'holds spaces or control characters';
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return 'does not parse as a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `has the scheme "${u.protocol.slice(0, -1)}", not http or https`;
  if (u.username || u.password) return 'holds credentials, which would be written to logs; put the key in the variable apiKeyEnv names';
  if (u.search || u.hash) return 'has a query or fragment; a base URL is where /chat/completions is appended';
  return null;
}

const url = z
  .string({ error: typed('must be an http(s) URL string') })
  .trim()
  .regex(/^https?:\/\//, { error: (iss) => `${got(iss.input)} is not an http(s) URL, e.g. "http://127.0.0.1:8000/v1"` })
  .refine((s) => !/^https?:\/\//.test(s) || urlProblem(s) === null, {
    error: (iss) => `${got(iss.input)} is not a usable http(s) URL: it ${urlProblem(String(iss.input).trim())}`,
  });

const baseURL = z
  .union([url, z.array(url).min(1, { error: 'an empty list: give at least one URL' })], {
    error: typed("must be a URL or a list of replicas' URLs", 'the server\'s OpenAI-compatible base URL, e.g. "http://127.0.0.1:8000/v1"'),
  })
  .meta({ description: 'The server\'s OpenAI-compatible base URL, e.g. "http://127.0.0.1:8000/v1", or a list of replicas.' });

const rolesMsg = `a list of any of ${ROLES.join(', ')}`;
const roles = z
  .array(z.enum(ROLES as [LlmRole, ...LlmRole[]], { error: (iss) => `unknown role ${got(iss.input)}; roles are ${ROLES.join(', ')}` }), {
    error: (iss) => (iss.input === undefined ? `missing or empty: ${rolesMsg}` : `must be ${rolesMsg}, got ${got(iss.input)}`),
  })
  .min(1, { error: `missing or empty: ${rolesMsg}` })
  .meta({ description: `What the model does in a run: ${ROLES.join(', ')}.` });

const apiKeyEnv = z
  .string({ error: typed('must be a non-empty string') })
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
    error: (iss) =>
      `must be the NAME of an environment variable (e.g. "OPENAI_API_KEY"), not ${String(iss.input).length > 12 ? 'a key' : got(iss.input)}`,
  })
  .optional()
  .meta({ description: 'The NAME of the environment variable holding the key (the key itself is never written in the file).' });

const CLIENT_KEYS = ['model', 'messages', 'stream'];
const params = z
  .record(z.string(), z.unknown(), {
    error: 'must be an object of sampling parameters, e.g. {"temperature": 0.6, "max_tokens": 4096}',
  })
  .superRefine((p, ctx) => {
    for (const k of CLIENT_KEYS)
      if (k in p) ctx.addIssue({ code: 'custom', message: `"${k}" is set by the client, not a sampling parameter` });
  })
  .optional()
  .meta({ description: 'Sampling parameters sent with every request as given, e.g. {"temperature": 0.6, "max_tokens": 4096}.' });

/** The one message of a bad price, whichever of its parts is wrong (see fieldMessages). */
export const PRICE_MESSAGE = (v: unknown) => `must be {"inputPerMTok": USD, "outputPerMTok": USD} with numbers ≥ 0, got ${got(v)}`;
const usd = z.number().min(0);
const price = z
  .strictObject({ inputPerMTok: usd, outputPerMTok: usd })
  .optional()
  .meta({ description: 'USD per million input and output tokens, for cdp estimate.' });

const JUDGE_SHAPE = 'must be {"gamma": number in (0, 1], "beta": number ≥ 0}';
const judge = z
  .strictObject(
    {
      gamma: z
        .number({ error: (iss) => `"gamma" must be a number in (0, 1] (the LNDS matching threshold on C), got ${got(iss.input)}` })
        .gt(0, { error: (iss) => `"gamma" must be a number in (0, 1] (the LNDS matching threshold on C), got ${got(iss.input)}` })
        .lte(1, { error: (iss) => `"gamma" must be a number in (0, 1] (the LNDS matching threshold on C), got ${got(iss.input)}` })
        .optional()
        .meta({ description: "LNDS matching threshold γ on the judge's similarity scale, in (0, 1]." }),
      beta: z
        .number({ error: (iss) => `"beta" must be a finite number ≥ 0 (the OT positional weight), got ${got(iss.input)}` })
        .min(0, { error: (iss) => `"beta" must be a finite number ≥ 0 (the OT positional weight), got ${got(iss.input)}` })
        .optional()
        .meta({ description: 'OT positional weight β, ≥ 0.' }),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : JUDGE_SHAPE) },
  )
  .optional()
  .meta({ description: "A judge's calibration: LNDS γ and OT β (judges only; defaults from the paper)." });

const paper = z
  .enum(PAPER_MODEL_NAMES as [string, ...string[]], {
    error: (iss) => `${got(iss.input)} is not a model of the paper; known: ${PAPER_MODEL_NAMES.join(', ')}`,
  })
  .optional()
  .meta({ description: "The paper's model this one stands for: only such models are compared with the published numbers." });

/** The one message of a bad `retry` (see models-file-problems.ts), as the LLM client's retry settings read it. */
export const RETRY_SHAPE = '{"waitForServerMs": integer ≥ 0, "maxAttempts": integer ≥ 1}';
const waitMsg = (iss: { input?: unknown }) => `"waitForServerMs" must be an integer of milliseconds ≥ 0, got ${got(iss.input)}`;
const attemptsMsg = (iss: { input?: unknown }) => `"maxAttempts" must be an integer ≥ 1, got ${got(iss.input)}`;
const retry = z
  .strictObject(
    {
      waitForServerMs: z.int({ error: waitMsg }).min(0, { error: waitMsg }).optional().meta({
        description:
          'How long calls wait for a server that is not there (refused, 502, 503, 504), from the first such failure; 0 fails at once.',
      }),
      maxAttempts: z
        .int({ error: attemptsMsg })
        .min(1, { error: attemptsMsg })
        .optional()
        .meta({ description: 'Attempts for the other faults worth retrying (429, 500, timeouts, malformed bodies).' }),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : `must be ${RETRY_SHAPE}, got ${got(iss.input)}`) },
  )
  .optional()
  .meta({ description: "How this model's calls are retried, over the client's defaults." });

const modelId = z
  .string({ error: typed('must be a non-empty string') })
  .trim()
  .min(1, { error: typed('must be a non-empty string') })
  .refine((s) => !/\p{Cc}/u.test(s), { error: (iss) => `${got(iss.input)} holds control characters; give the id the server lists` })
  .optional()
  .meta({ description: 'The model id sent to the server (default: name).' });

export const ModelEntrySchema = z
  .strictObject(
    {
      name,
      baseURL,
      model: modelId,
      roles,
      apiKeyEnv,
      params,
      contextWindow: positiveInt('Prompt + answer tokens the server serves; prompts over it are refused before sending.'),
      concurrency: positiveInt('Requests in flight at once, over all replicas.'),
      rpm: positiveInt('Requests per minute allowed.'),
      tpm: positiveInt('Tokens per minute allowed.'),
      price,
      batch: flag('Send through the OpenAI Batch API.'),
      timeoutMs: positiveInt('Per attempt, in milliseconds.'),
      retry,
      independentSamples: flag('Repeated samples are independent draws (false: the server is deterministic).'),
      expectedOutputTokens: positiveInt('Output tokens per answer, for cdp estimate.'),
      enabled: flag('false: declared but not used.'),
      judge,
      paper,
      note: text('Free text, shown by cdp models.'),
    },
    { error: (iss) => (iss.code === 'invalid_type' ? 'must be an object with at least "name", "baseURL" and "roles"' : undefined) },
  )
  .superRefine(
    (e, ctx) => {
      // Run even when a field is bad (all of an entry's problems at once), so `e` is as written.
      if (!e || typeof e !== 'object' || e.judge === undefined) return;
      if (Array.isArray(e.roles) && !e.roles.includes('judge')) {
        ctx.addIssue({
          code: 'custom',
          path: ['judge'],
          message: 'a calibration for a model without the "judge" role; add "judge" to roles or drop the field',
        });
      }
    },
    { when: () => true },
  );

export type ModelEntry = z.infer<typeof ModelEntrySchema>;

/** Names as read from the raw entries, for the checks across entries (run even when an entry is bad). */
function nameOf(entry: unknown): string | null {
  const n = (entry as { name?: unknown } | null)?.name;
  return typeof n === 'string' && n.trim() ? n.trim() : null;
}

function uniqueNames(models: unknown[], ctx: z.RefinementCtx): void {
  const exact = new Map<string, number>();
  const folded = new Map<string, number>();
  models.forEach((m, i) => {
    const n = nameOf(m);
    if (n === null) return;
    const first = exact.get(n);
    const firstFolded = folded.get(n.toLowerCase());
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['models', i, 'name'],
        message: `entry ${first + 1} has the same name; names label every table, so they must be unique`,
      });
    } else if (firstFolded !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['models', i, 'name'],
        message: `entry ${firstFolded + 1} is named ${got(nameOf(models[firstFolded]))}, the same up to case; DuckDB's column names and the file names of macOS and Windows ignore case, so tables would merge the two: rename one`,
      });
    }
    if (first === undefined) exact.set(n, i);
    if (firstFolded === undefined) folded.set(n.toLowerCase(), i);
  });
}

export const TOP_KEYS = ['models', 'simulated', '$schema', 'description'] as const;

export const ModelsFileSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'This file\'s schema, e.g. "./models.schema.json".' }),
    description: z.string().optional().meta({ description: 'Free text.' }),
    simulated: z
      .boolean({ error: (iss) => `"simulated" must be true or false, got ${got(iss.input)}` })
      .optional()
      .meta({ description: 'Also run the simulated reference agents and judges beside the real models (labelled simulated).' }),
    models: z.array(ModelEntrySchema, { error: '"models" must be an array of model entries' }),
  })
  .superRefine(
    (f, ctx) => {
      if (f && Array.isArray(f.models)) uniqueNames(f.models, ctx);
    },
    { when: () => true },
  )
  .meta({ title: 'cdp-pipeline models file', description: 'Every model a run may call (README, "Evaluating your own models").' });

/** The JSON Schema of a models file, as committed in models/models.schema.json. */
export function modelsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ModelsFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
