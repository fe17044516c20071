/**
 * Stage `dialogues_multi`: the multi-turn interactive setting (paper §3.2). One unit per test
 * CDP × evaluated model plays one dialogue between the model (the doctor) and a patient model.
 *
 * - Doctor: system message = Prompt 6 with the guideline (a blob) and the clinical inquiry goal
 *   (inquiry-goal.ts: "Determine the appropriate <focus> for this patient according to the
 *   guideline "<title>"."), then its parsed questions and the patient's parsed answers as
 *   alternating turns (stages/prompts/dialogue-messages.ts). Each reply is read with
 *   `parseDoctorTurn`: one Yes/No question, or "Final Conclusion: …".
 * - Patient: the `patient` param's model (the wiring's roster name), system message = Prompt 7
 *   with the vignette; each reply is read with `parsePatientAnswer`.
 * - Every doctor and patient call carries the unit's rows as its `context` (unit-context.ts),
 *   with the goal and the exchange so far for the doctor and the question for the patient, for
 *   offline providers only (the client never sends it and it is not in the cache key). What a
 *   patient provider reports in its response metadata (`via`, `node`) is kept in the transcript.
 *
 * The dialogue ends, with `end_reason`:
 * - 'conclusion': the doctor gave a final conclusion → success = true;
 * - 'invalid-turn: <reason>': a doctor reply broke the format → success = false, no further turn;
 * - 'turn-cap': `cap` doctor turns passed without a conclusion → success = false;
 * - 'patient-invalid: <reason>': the patient's reply was neither Yes nor No → success = false
 *   (the dialogue could not be completed; evaluation can tell this apart by end_reason).
 * success is the paper's SR criterion: every doctor turn followed the format and a conclusion
 * came within the cap. The cap counts doctor turns (questions and the conclusion):
 * ceil(capFactor × length + capExtra) with the reference CDP's length, defaults 2 and 4
 * (turn-cap.ts).
 *
 * A failed call of either side (HTTP errors after retries, context overflow) makes a failure row
 * with the reason and the transcript so far; `cdp run --retry-failed` replays the dialogue, whose
 * earlier calls come from the call cache.
 *
 * `questions` (the predicted CDP) are the parsed questions in order; `turns` the full transcript:
 * role 'doctor' | 'patient', the raw reply, and the parsed question / conclusion / "Yes" | "No"
 * (null for an unreadable reply).
 */
import { rowStage } from '../../pipeline/stage.ts';
import type { ChatMessage } from '../../pipeline/llm/types.ts';
import { doctorMessages, patientMessages, type DialogueTurn } from '../prompts/dialogue-messages.ts';
import { loadTemplate, renderTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { clinicalInquiryGoal } from './inquiry-goal.ts';
import { parseDoctorTurn } from './parse-doctor-turn.ts';
import { parsePatientAnswer } from './parse-patient-answer.ts';
import { turnCap } from './turn-cap.ts';
import { caseInputs, isSimulated, modelOf, stageLlm, type TaskParamsBase } from './task-unit.ts';

export interface DialoguesMultiParams extends TaskParamsBase {
  /** Roster name of the patient of real models' dialogues (the wiring names it). */
  patient: string;
  /** The patient of simulated agents' dialogues, so no real patient call is spent on a stand-in (default: `patient`). */
  simulatedPatient?: string;
  /** Turn cap = ceil(capFactor × reference length + capExtra) doctor turns. Default 2. */
  capFactor?: number;
  /** Default 4. */
  capExtra?: number;
}

export interface TranscriptTurn {
  role: 'doctor' | 'patient';
  text: string;
  parsed: string | null;
  /**
   * What the patient provider reported using (its response metadata): for the simulated patient
   * 'path' — the question matched reference node `node`; 'vignette'; 'default' — "No". Null for
   * the doctor and for providers that report nothing (real models).
   */
  via: string | null;
  node: number | null;
}

/** The exchange so far as the doctor's context holds it: only answered turns, answers as read. */
function answered(dialogue: readonly DialogueTurn[]): Array<{ question: string; answer: 'Yes' | 'No' }> {
  return dialogue.filter((t) => t.answer !== undefined).map((t) => ({ question: t.question, answer: t.answer === 'Yes' ? 'Yes' : 'No' }));
}

export default rowStage<DialoguesMultiParams>({
  columns: {
    model: 'VARCHAR',
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    turns: 'STRUCT(role VARCHAR, text VARCHAR, parsed VARCHAR, via VARCHAR, node INTEGER)[]',
    questions: 'VARCHAR[]',
    outcome: 'VARCHAR',
    success: 'BOOLEAN',
    end_reason: 'VARCHAR',
    goal: 'VARCHAR',
    patient: 'VARCHAR',
    simulated: 'BOOLEAN',
  },
  async run(unit, ctx) {
    const { row } = unit;
    if (row.split !== 'test') return [];
    const model = modelOf(unit.cross);
    const simulated = isSimulated(model, ctx.params.simulated);
    const patient = simulated ? (ctx.params.simulatedPatient ?? ctx.params.patient) : ctx.params.patient;
    if (typeof patient !== 'string' || patient === '') {
      throw new Error(`stage ${ctx.stage}: no patient model; set the "patient" param to the patient's roster name (in dag.config.ts)`);
    }
    const base = { model, cdp_id: row.cdp_id, guideline_id: row.guideline_id, language: row.language, patient, simulated };
    const inputs = caseInputs(unit);
    if (!inputs.ok) return { ...base, error: inputs.error };
    const { guideline, markdown, vignette } = inputs.value;
    const llm = stageLlm(ctx.llm, ctx.stage);
    const language = String(row.language);
    const title = typeof guideline.title === 'string' && guideline.title.trim() ? guideline.title : String(row.guideline_id);
    const goal = clinicalInquiryGoal(String(row.focus ?? ''), title, language);
    const cap = turnCap(Number(row.length), ctx.params.capFactor, ctx.params.capExtra);

    const doctorSystem: ChatMessage = promptMessage(llm, loadTemplate('multi-turn-inference', language), { Clinical_Inquiry_Goal: goal, Guideline: markdown }, ['Guideline'], 'system');
    const patientSystem = renderTemplate(loadTemplate('multi-turn-patient-environment', language), { Case_Vignette: vignette });
    const unitContext = inputs.value.context;
    // Both sides sample independently per case: two cases with the same first prompt get two answers.
    const sample = String(row.cdp_id);
    const dialogue: DialogueTurn[] = [];
    const turns: TranscriptTurn[] = [];
    const questions: string[] = [];
    const end = (endReason: string, outcome: string | null = null) => ({ ...base, goal, turns, questions, outcome, success: endReason === 'conclusion', end_reason: endReason });
    const failed = (error: string) => ({ ...base, goal, turns, questions, error });

    for (let k = 1; k <= cap; k++) {
      // The doctor's chat: its system message (with the guideline blob), then the exchange so far.
      const doctorContext = { ...unitContext, goal, dialogue: answered(dialogue) };
      const d = await llm.chat({ model, messages: [doctorSystem, ...doctorMessages('', dialogue).slice(1)], role: 'evaluated', sample, context: doctorContext });
      if (!d.ok) return failed(`doctor ${model}, turn ${k}: ${d.error}`);
      const said = parseDoctorTurn(d.text);
      if (said.kind === 'invalid') {
        turns.push({ role: 'doctor', text: d.text, parsed: null, via: null, node: null });
        return end(`invalid-turn: ${said.reason}`);
      }
      if (said.kind === 'conclusion') {
        turns.push({ role: 'doctor', text: d.text, parsed: said.conclusion, via: null, node: null });
        return end('conclusion', said.conclusion);
      }
      turns.push({ role: 'doctor', text: d.text, parsed: said.question, via: null, node: null });
      questions.push(said.question);
      dialogue.push({ question: said.question });

      const patientContext = { ...unitContext, question: said.question };
      const p = await llm.chat({ model: patient, messages: patientMessages(patientSystem, dialogue), role: 'patient', sample, context: patientContext });
      if (!p.ok) return failed(`patient ${patient}, turn ${k}: ${p.error}`);
      const answer = parsePatientAnswer(p.text);
      const via = typeof p.metadata?.via === 'string' ? p.metadata.via : null;
      const node = typeof p.metadata?.node === 'number' ? p.metadata.node : null;
      turns.push({ role: 'patient', text: p.text, parsed: answer.ok ? answer.answer : null, via, node });
      if (!answer.ok) return end(`patient-invalid: ${answer.reason}`);
      dialogue[dialogue.length - 1]!.answer = answer.answer;
    }
    return end('turn-cap');
  },
});
