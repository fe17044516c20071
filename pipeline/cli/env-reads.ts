/**
 * Which environment variables the DAG's configuration reads while it loads (a roster that picks
 * models from CDP_LLM_BASE_URL, a store chosen by CDP_STORE, …). The no-op fast path compares
 * their values (hashed) with the last run's, so a changed variable always takes the full path.
 * An enumeration of the whole environment makes the set unknowable, and disables the fast path.
 */
const seen = new Set<string>();
let enumerated = false;
let recording = false;

export function startRecordingEnv(): void {
  if (recording) return;
  recording = true;
  const real = process.env;
  process.env = new Proxy(real, {
    get(t, k) {
      if (recording && typeof k === 'string') seen.add(k);
      return Reflect.get(t, k);
    },
    has(t, k) {
      if (recording && typeof k === 'string') seen.add(k);
      return Reflect.has(t, k);
    },
    ownKeys(t) {
      if (recording) enumerated = true;
      return Reflect.ownKeys(t);
    },
  });
}

/** Stops recording; the variables read so far, or null when the whole environment was enumerated. */
export function stopRecordingEnv(): string[] | null {
  recording = false;
  return enumerated ? null : [...seen].sort();
}
