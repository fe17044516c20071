import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectFacts } from './run-facts.ts';

const corpus = { dir: 'data/sample', bundled: true };
const patientFacts = (rows: Record<string, unknown>[], known: { name: string; simulated: boolean }[]) =>
  collectFacts({ dialogues_multi: rows }, corpus, known)
    .filter((f) => f.fact === 'patient')
    .map((f) => [f.name, f.simulated, f.count]);

test("the patient's simulated flag is its dialogues' own, whatever the wiring says; the wiring's only for rows without one", () => {
  const dialogue = (patient: string, flag?: boolean) => ({
    model: 'm',
    simulated: false,
    patient,
    ...(flag === undefined ? {} : { patient_simulated: flag }),
  });
  // The store's dialogues were made with a served patient, the wiring now names it a stand-in.
  assert.deepEqual(patientFacts([dialogue('patient-a', false), dialogue('patient-a', false)], [{ name: 'patient-a', simulated: true }]), [
    ['patient-a', false, 2],
  ]);
  assert.deepEqual(patientFacts([dialogue('simulated-patient', true)], []), [['simulated-patient', true, 1]]);
  // Rows from before the flag: the wiring's value, else unknown.
  assert.deepEqual(patientFacts([dialogue('patient-b')], [{ name: 'patient-b', simulated: true }]), [['patient-b', true, 1]]);
  assert.deepEqual(patientFacts([dialogue('patient-c')], []), [['patient-c', null, 1]]);
});
