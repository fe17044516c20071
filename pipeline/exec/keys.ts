/**
 * A stage's key: the hash of its code identity, canonical params, input artifact hashes and
 * declared shape, and for a row-mapped stage that crosses a param, that param's elements. Two runs
 * with equal keys would compute equal artifacts, so an equal key means reuse. `explainStaleness`
 * turns a key mismatch into the reasons a person needs, down to the changed member of a param
 * (value-diff.ts): "params changed: patient (p changed: model)".
 */
import { hashValue } from '../hash/canonical.ts';
import type { CodeHasher } from '../hash/code-identity.ts';
import type { KeyComponents, LedgerEntry } from '../store/ledger.ts';
import type { ResolvedStage } from '../dag/validate.ts';
import { describeChange, listChanges } from './value-diff.ts';

/** Params that enter the stage-wide key: all but the param a row-mapped stage crosses over. */
export function keyedParams(stage: ResolvedStage): Record<string, unknown> {
  const params = { ...(stage.decl.params ?? {}) };
  if (stage.forEach?.cross) delete params[stage.forEach.cross.param];
  return params;
}

export function stageComponents(
  stage: ResolvedStage,
  code: CodeHasher,
  inputHashes: Record<string, { from: string; hash: string }>,
): KeyComponents {
  const identity = code.identity(stage.decl.module);
  const params = keyedParams(stage);
  const cross = stage.forEach?.cross;
  const elements = cross ? ((stage.decl.params?.[cross.param] as unknown[] | undefined) ?? []) : [];
  return {
    code: { hash: identity.hash, files: identity.files, packages: identity.packages },
    params: { hash: hashValue(params), value: params },
    inputs: inputHashes,
    shape: hashValue({ columns: stage.columns, forEach: stage.forEach ?? null, kind: stage.impl.kind }),
    // The units' keys leave the crossed param out (params above); the stage's must not, or a model
    // added to the list would find the stage fresh and never run.
    ...(cross ? { cross: { param: cross.param, hash: hashValue(elements), value: elements } } : {}),
  };
}

export function keyOf(c: KeyComponents): string {
  return hashValue({
    code: c.code.hash,
    params: c.params.hash,
    inputs: Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, v.hash])),
    shape: c.shape,
    ...(c.cross ? { cross: c.cross.hash } : {}),
  });
}

function crossReason(now: NonNullable<KeyComponents['cross']>, was: KeyComponents['cross']): string | null {
  if (was?.hash === now.hash) return null;
  if (!was) return `crossed param '${now.param}': the last run did not record its elements`;
  return `crossed param '${now.param}': ${listChanges(was.value, now.value).join('; ')}`;
}

/** Why the current components differ from those the stage last ran with, most specific first. */
export function explainStaleness(now: KeyComponents, before: LedgerEntry | undefined): string[] {
  if (!before) return ['never ran'];
  const was = before.components;
  if (!was) return ['no record of the components it ran with'];
  const reasons: string[] = [];
  for (const [local, inp] of Object.entries(now.inputs)) {
    const old = was.inputs[local];
    if (!old) reasons.push(`new input '${local}' (${inp.from})`);
    else if (old.hash !== inp.hash) reasons.push(`input '${local}' (${inp.from}) changed`);
  }
  for (const local of Object.keys(was.inputs)) if (!(local in now.inputs)) reasons.push(`input '${local}' removed`);
  if (now.params.hash !== was.params.hash) {
    const a = now.params.value as Record<string, unknown>;
    const b = (was.params.value ?? {}) as Record<string, unknown>;
    const changed = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => hashValue(a[k] ?? null) !== hashValue(b[k] ?? null));
    const said = changed.map((k) => {
      const how = describeChange(b[k], a[k]);
      return how ? `${k} (${how})` : k;
    });
    reasons.push(`params changed: ${said.join(', ') || '(values)'}`);
  }
  const cross = now.cross ? crossReason(now.cross, was.cross) : null;
  if (cross) reasons.push(cross);
  for (const [file, h] of Object.entries(now.code.files)) {
    if (!(file in was.code.files)) reasons.push(`code: new module ${file}`);
    else if (was.code.files[file] !== h) reasons.push(`code: ${file} changed`);
  }
  for (const file of Object.keys(was.code.files)) if (!(file in now.code.files)) reasons.push(`code: no longer imports ${file}`);
  for (const [pkg, v] of Object.entries(now.code.packages)) {
    if (was.code.packages[pkg] !== undefined && was.code.packages[pkg] !== v)
      reasons.push(`package ${pkg} ${was.code.packages[pkg]} → ${v}`);
  }
  if (now.shape !== was.shape) reasons.push('declared columns or row mapping changed');
  if (!reasons.length) reasons.push('key changed');
  return reasons;
}
