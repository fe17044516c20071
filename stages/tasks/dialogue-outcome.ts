/**
 * How a multi-turn dialogue counts (paper §4.1 SR, issue 11 item 2): from how it ended and the
 * formats of the doctor's accepted turns, the row fields the success rate is computed from.
 *
 * - success (lenient SR): true for a conclusion within the cap, every doctor turn readable
 *   (variants accepted); false for a doctor turn that could not be read ('invalid-turn: …') or
 *   the turn cap; null for a patient failure, which says nothing about the doctor.
 * - success_strict: success and every doctor turn exactly in Prompt 6's format (format 'strict');
 *   null exactly when success is null.
 * - patient_failed: the patient model's answer could not be read, even after one re-ask
 *   (end_reason 'patient-failure: <reason>'). Such a dialogue is a case of the model that was not
 *   evaluated: a success rate over every test case counts it apart, never as the doctor's failure.
 * - format: the dialogue's doctor format — 'strict' when every doctor turn was strict, otherwise
 *   the union of their variants (answer-format.ts); null when a doctor turn was unreadable (there
 *   is no accepted format to report).
 */
import { type AnswerFormat, formatOf, variantsOf } from '../../pipeline/stage.ts';

export type DialogueEnd =
  | { kind: 'conclusion'; conclusion: string }
  | { kind: 'invalid-turn'; reason: string }
  | { kind: 'turn-cap' }
  | { kind: 'patient-failure'; reason: string };

export interface DialogueAccount {
  end_reason: string;
  outcome: string | null;
  success: boolean | null;
  success_strict: boolean | null;
  patient_failed: boolean;
  format: AnswerFormat | null;
}

/** `doctorFormats`: each doctor turn's format in order, null for the unreadable one. */
export function accountDialogue(end: DialogueEnd, doctorFormats: readonly (AnswerFormat | null)[]): DialogueAccount {
  const format = doctorFormats.some((f) => f === null) ? null : formatOf(doctorFormats.flatMap((f) => variantsOf(f!)));
  const patientFailed = end.kind === 'patient-failure';
  const success = patientFailed ? null : end.kind === 'conclusion';
  return {
    end_reason: end.kind === 'conclusion' || end.kind === 'turn-cap' ? end.kind : `${end.kind}: ${end.reason}`,
    outcome: end.kind === 'conclusion' ? end.conclusion : null,
    success,
    success_strict: success === null ? null : success && format === 'strict',
    patient_failed: patientFailed,
    format,
  };
}
