/**
 * Stage `dialogues_multi`: the multi-turn interactive setting (paper §3.2). One unit per test
 * CDP × evaluated model plays one dialogue between the model (the doctor) and a patient model.
 *
 * - Doctor: system message = Prompt 6 with the guideline (a blob) and the clinical inquiry goal
 *   (inquiry-goal.ts: "Determine the appropriate <focus> for this patient according to the
 *   guideline "<title>"."), then its parsed questions and the patient's parsed answers as
 *   alternating turns (stages/prompts/dialogue-messages.ts). Each reply is read with
 *   `parseDoctorTurn`: one Yes/No question, or "Final Conclusion: …".
 * - Patient: the `patient` param's model (the wiring's roster value), system message = Prompt 7
 *   with the vignette; each reply is read with `parsePatientAnswer`.
 * - Every doctor and patient call carries the unit's rows as its `context` (unit-context.ts),
 *   with the goal and the exchange so far for the doctor and the question for the patient, for
 *   offline providers only (the client never sends it and it is not in the cache key). What a
 *   patient provider reports in its response metadata (`via`, `node`) is kept in the transcript.
 *
 * The dialogue ends, with `end_reason` (dialogue-outcome.ts computes the counting fields):
 * - 'conclusion': the doctor gave a final conclusion → success = true;
 * - 'invalid-turn: <reason>': a doctor reply could not be read → success = false, no further
 *   turn; a truncated reply (finish_reason 'length') is such a reply, its reason says so;
 * - 'turn-cap': `cap` doctor turns passed without a conclusion → success = false;
 * - 'patient-failure: <reason>': the patient's reply could not be read, and neither could its
 *   reply to one re-ask (patient-reask.ts: a follow-up naming the reader's reason) → a failure
 *   row (`error` set, `failure_kind` 'patient') that keeps the transcript, with success = null,
 *   success_strict = null, patient_failed = true: the patient model's failure, not the doctor's,
 *   and retried by `cdp run --retry-failed`. Every other row has patient_failed = false.
 * success is the paper's SR criterion read leniently: every doctor turn readable (variants
 * accepted) and a conclusion within the cap; success_strict also wants every doctor turn exactly
 * in Prompt 6's format. `format` is the dialogue's doctor format ('strict' when every doctor turn
 * was). The cap counts doctor turns (questions and the conclusion):
 * ceil(capFactor × length + capExtra) with the reference CDP's length, defaults 2 and 4
 * (turn-cap.ts). Every row records the rule and the cap it played under (`cap_factor`,
 * `cap_extra`, `cap`) and the templates sent (`templates`: the doctor's, then the patient's), which
 * is where the reports read them.
 *
 * A failed call of either side (HTTP errors after retries, context overflow, an empty or cut-off
 * 200) makes a failure row with the reason and the transcript so far, `failure_kind` 'server' for
 * the doctor's and 'patient' for the patient's. `cdp run --retry-failed` replays the dialogue:
 * its earlier calls come from the call cache (no earlier turn is sent again; the refused patient
 * reply is asked afresh), so it resumes at the turn that failed.
 * `failure_kind` is 'answer' on a dialogue that ended at an unreadable doctor turn (a result, not a
 * failure row); `cdp run --retry-answers` replays those dialogues and, at the stored unreadable
 * turn, refuses it and asks for a fresh sample; `resampled` counts the doctor's fresh samples.
 *
 * `questions` (the predicted CDP) are the parsed questions in order; `turns` the full transcript:
 * role 'doctor' | 'patient', the raw reply, the parsed question / conclusion / "Yes" | "No"
 * (null for an unreadable reply) and the reader's `format` (null for an unreadable reply). A
 * re-asked patient answer shows as two patient turns in a row, the unreadable one first.
 */
import { rowStage, z, type ChatMessage } from '../../pipeline/stage.ts';
import { doctorMessages, patientMessages, type DialogueTurn } from '../prompts/dialogue-messages.ts';
import { loadTemplate, renderTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { clinicalInquiryGoal } from './inquiry-goal.ts';
import { accountDialogue, type DialogueEnd } from './dialogue-outcome.ts';
import { askDoctor } from './doctor-turn.ts';
import { askPatient } from './patient-turn.ts';
import type { TranscriptTurn } from './transcript-turn.ts';
import { DEFAULT_CAP_EXTRA, DEFAULT_CAP_FACTOR, turnCap } from './turn-cap.ts';
import { caseInputs, modelOf, type TaskParamsBase } from './task-unit.ts';
import { distinctNames, evaluatedModelSchema, modelRefOf, modelRefSchema, type ModelRef } from '../roster/model-ref.ts';

export type { TranscriptTurn };

export interface DialoguesMultiParams extends TaskParamsBase {
  /** The patient of real models' dialogues (the wiring's roster value: its settings key the dialogues). */
  patient: ModelRef;
  /** The patient of simulated agents' dialogues, so no real patient call is spent on a stand-in (default: `patient`). */
  simulatedPatient?: ModelRef;
  /** Turn cap = ceil(capFactor × reference length + capExtra) doctor turns (defaults: turn-cap.ts). */
  capFactor: number;
  capExtra: number;
}

/** The exchange so far as the doctor's context holds it: only answered turns, answers as read. */
function answered(dialogue: readonly DialogueTurn[]): Array<{ question: string; answer: 'Yes' | 'No' }> {
  return dialogue.filter((t) => t.answer !== undefined).map((t) => ({ question: t.question, answer: t.answer === 'Yes' ? 'Yes' : 'No' }));
}

export default rowStage<DialoguesMultiParams>({
  inputs: { cdps: 'drives', vignettes: 'joined', guidelines: 'joined', trees: 'joined' },
  params: {
    models: distinctNames(evaluatedModelSchema),
    patient: modelRefSchema,
    simulatedPatient: modelRefSchema.optional(),
    // Bounded: every turn is a call of each side.
    capFactor: z.number().min(0).max(20).default(DEFAULT_CAP_FACTOR),
    capExtra: z.number().min(0).max(200).default(DEFAULT_CAP_EXTRA),
  },
  columns: {
    model: 'VARCHAR',
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    turns: 'STRUCT(role VARCHAR, text VARCHAR, parsed VARCHAR, via VARCHAR, node INTEGER, format VARCHAR)[]',
    questions: 'VARCHAR[]',
    outcome: 'VARCHAR',
    success: 'BOOLEAN',
    success_strict: 'BOOLEAN',
    patient_failed: 'BOOLEAN',
    format: 'VARCHAR',
    end_reason: 'VARCHAR',
    goal: 'VARCHAR',
    patient: 'VARCHAR',
    simulated: 'BOOLEAN',
    failure_kind: 'VARCHAR',
    resampled: 'INTEGER',
    cap: 'INTEGER',
    cap_factor: 'DOUBLE',
    cap_extra: 'DOUBLE',
    templates: 'VARCHAR[]',
  },
  async run(unit, ctx) {
    const { row } = unit;
    if (row.split !== 'test') return [];
    const spec = modelOf(unit.cross);
    const model = spec.name;
    const simulated = spec.simulated;
    const patient = modelRefOf(
      simulated ? (ctx.params.simulatedPatient ?? ctx.params.patient) : ctx.params.patient,
      `stage ${ctx.stage}: the patient (param 'patient')`,
    ).name;
    const { capFactor, capExtra } = ctx.params;
    const ids = { model, cdp_id: row.cdp_id, guideline_id: row.guideline_id, language: row.language, patient, simulated };
    const rule = { cap_factor: capFactor, cap_extra: capExtra };
    const inputs = caseInputs(unit);
    if (!inputs.ok) return { ...ids, ...rule, error: inputs.error };
    const { guideline, markdown, vignette } = inputs.value;
    const llm = ctx.llm;
    const language = String(row.language);
    const title = typeof guideline.title === 'string' && guideline.title.trim() ? guideline.title : String(row.guideline_id);
    const goal = clinicalInquiryGoal(String(row.focus ?? ''), title, language);
    const cap = turnCap(Number(row.length), capFactor, capExtra);
    const doctorTemplate = loadTemplate('multi-turn-inference', language);
    const patientTemplate = loadTemplate('multi-turn-patient-environment', language);
    const base = { ...ids, ...rule, cap, templates: [doctorTemplate.identity, patientTemplate.identity] };

    const doctorSystem: ChatMessage = promptMessage(
      llm,
      doctorTemplate,
      { Clinical_Inquiry_Goal: goal, Guideline: markdown },
      ['Guideline'],
      'system',
    );
    const patientSystem = renderTemplate(patientTemplate, { Case_Vignette: vignette });
    const unitContext = inputs.value.context;
    // Both sides sample independently per case: two cases with the same first prompt get two answers.
    const sample = String(row.cdp_id);
    const dialogue: DialogueTurn[] = [];
    const turns: TranscriptTurn[] = [];
    const questions: string[] = [];
    const doctorFormats = () => turns.filter((t) => t.role === 'doctor').map((t) => t.format);
    let resampled = 0;
    const so = () => ({ ...base, goal, turns, questions, resampled });
    const end = (how: DialogueEnd, failure_kind: string | null = null) => ({
      ...so(),
      ...accountDialogue(how, doctorFormats()),
      failure_kind,
    });
    const failed = (error: string, failure_kind: 'server' | 'patient') => ({ ...so(), error, failure_kind });
    const retryAnswers = ctx.retrying?.includes('answer') ?? false;

    for (let k = 1; k <= cap; k++) {
      // The doctor's chat: its system message (with the guideline blob), then the exchange so far.
      const doctorContext = { ...unitContext, goal, dialogue: answered(dialogue) };
      const messages = [doctorSystem, ...doctorMessages('', dialogue).slice(1)];
      const d = await askDoctor(llm, { model, messages, role: 'evaluated', sample, context: doctorContext }, retryAnswers);
      if (!d.ok) return failed(`doctor ${model}, turn ${k}: ${d.error}`, 'server');
      resampled += d.attempt;
      const { said } = d;
      if (said.kind === 'invalid') {
        turns.push({ role: 'doctor', text: d.text, parsed: null, via: null, node: null, format: null });
        return end({ kind: 'invalid-turn', reason: said.reason }, 'answer');
      }
      if (said.kind === 'conclusion') {
        turns.push({ role: 'doctor', text: d.text, parsed: said.conclusion, via: null, node: null, format: said.format });
        return end({ kind: 'conclusion', conclusion: said.conclusion });
      }
      turns.push({ role: 'doctor', text: d.text, parsed: said.question, via: null, node: null, format: said.format });
      questions.push(said.question);
      dialogue.push({ question: said.question });

      const context = { ...unitContext, question: said.question };
      const asked = patientMessages(patientSystem, dialogue);
      const p = await askPatient(llm, { model: patient, asked, question: said.question, language, sample, context });
      turns.push(...p.turns);
      if (p.kind === 'failed-call') return failed(`patient ${patient}, turn ${k}${p.reask ? ' (re-ask)' : ''}: ${p.error}`, 'patient');
      if (p.kind === 'unreadable') {
        // A failure row: `cdp run --retry-failed` replays the dialogue up to here from the cache and asks the patient afresh.
        const error = `patient ${patient}, turn ${k}: answer unreadable after a re-ask: ${p.reason}`;
        return { ...end({ kind: 'patient-failure', reason: p.reason }, 'patient'), error };
      }
      dialogue[dialogue.length - 1]!.answer = p.answer;
    }
    return end({ kind: 'turn-cap' });
  },
});
