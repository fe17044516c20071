/**
 * Stage `dialogues_multi`: the multi-turn interactive setting (paper §3.2), one dialogue per test
 * CDP × evaluated model between the model as the doctor (Prompt 6) and the `patient` model
 * (Prompt 7). How a dialogue ends, its columns and its failures: docs/task-settings.md.
 *
 * What the code below does not say:
 * - The unit's rows travel as each call's `context` for offline providers only: the client never
 *   sends it and it is not in the cache key, so a stand-in's help cannot change a real call.
 * - An unreadable patient reply (after one re-ask) is the patient model's failure, never the
 *   doctor's: success stays null and the row is a failure row of kind 'patient' that keeps the
 *   transcript. A truncated doctor reply (finish_reason 'length') is an unreadable doctor turn.
 * - `cdp run --retry-failed` replays a dialogue through the call cache, so it resumes at the turn
 *   that failed without sending an earlier one again; `--retry-answers` refuses the stored
 *   unreadable doctor turn there to take a fresh sample.
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
    patient_simulated: 'BOOLEAN',
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
    const patientRef = modelRefOf(
      simulated ? (ctx.params.simulatedPatient ?? ctx.params.patient) : ctx.params.patient,
      `stage ${ctx.stage}: the patient (param 'patient')`,
    );
    const patient = patientRef.name;
    const { capFactor, capExtra } = ctx.params;
    // The patient's own flag beside its name, so tables tell a simulated patient without reading names.
    const ids = {
      model,
      cdp_id: row.cdp_id,
      guideline_id: row.guideline_id,
      language: row.language,
      patient,
      patient_simulated: patientRef.simulated,
      simulated,
    };
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
