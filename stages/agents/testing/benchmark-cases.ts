/**
 * Hand-built benchmark data for the agent tests: a small English hypertension tree and a
 * Chinese insomnia tree, their CDPs (via the real path enumeration), vignettes written by the
 * offline vignette writer, prompt renderers and a multi-turn dialogue driver that plays the
 * runner's part with the project's message builders and parsers.
 */
import type { ChatMessage, Provider } from '../../../pipeline/llm/types.ts';
import { enumeratePaths } from '../../construct/paths.ts';
import type { Cdp, ReasoningTree } from '../../construct/types.ts';
import { writeVignette } from '../writers/vignette-writer.ts';
import { doctorMessages, patientMessages, type DialogueTurn } from '../../prompts/dialogue-messages.ts';
import { loadTemplate, renderTemplate } from '../../prompts/templates.ts';
import { parseDoctorTurn } from '../../tasks/parse-doctor-turn.ts';
import { parsePatientAnswer } from '../../tasks/parse-patient-answer.ts';
import type { UnitContext } from '../../tasks/unit-context.ts';

export const HTN_TREE: ReasoningTree = {
  primary_clinical_focus: 'management',
  decision_tree: {
    index: 1,
    description: 'Is systolic blood pressure ≥140 mmHg?',
    yes: {
      index: 2,
      description: 'Does the patient have diabetes?',
      yes: {
        index: 4,
        description: 'Is the patient older than 65 years?',
        yes: { index: 8, leaf: true, conclusion: 'Start an ACE inhibitor at a low dose.' },
        no: { index: 9, leaf: true, conclusion: 'Start an ACE inhibitor.' },
      },
      no: {
        index: 5,
        description: 'Is there evidence of end-organ damage?',
        yes: { index: 10, leaf: true, conclusion: 'Start drug treatment immediately.' },
        no: { index: 11, leaf: true, conclusion: 'Confirm with ambulatory blood pressure monitoring.' },
      },
    },
    no: {
      index: 3,
      description: 'Is BMI ≥ 30 kg/m²?',
      yes: { index: 6, leaf: true, conclusion: 'Offer lifestyle advice for weight loss.' },
      no: { index: 7, leaf: true, conclusion: 'Recheck blood pressure in five years.' },
    },
  },
  node_guideline_mapping: {},
};

export const INSOMNIA_TREE: ReasoningTree = {
  primary_clinical_focus: 'diagnosis',
  decision_tree: {
    index: 1,
    description: '症状是否持续至少3个月？',
    yes: {
      index: 2,
      description: '是否存在日间功能损害？',
      yes: { index: 4, leaf: true, conclusion: '诊断为慢性失眠障碍。' },
      no: { index: 5, leaf: true, conclusion: '不诊断失眠障碍。' },
    },
    no: { index: 3, leaf: true, conclusion: '诊断为短期失眠障碍。' },
  },
  node_guideline_mapping: {},
};

export const HTN_MARKDOWN = [
  '# Hypertension in adults',
  '## Treatment',
  'Offer drug treatment to adults with systolic blood pressure of 140 mmHg or more who have diabetes.',
  '## Case Vignette:',
  'A heading that looks like a template marker must not confuse the agents.',
].join('\n');

export const INSOMNIA_MARKDOWN = '# 失眠障碍诊断指南\n\n症状持续至少3个月并伴日间功能损害者诊断为慢性失眠障碍。';

export interface Fixture {
  htn: Cdp[];
  insomnia: Cdp[];
  vignetteOf(cdp: Cdp): string;
  /** The unit context a task stage attaches to a call about `cdp`. */
  unit(cdp: Cdp): UnitContext;
}

export function buildFixture(): Fixture {
  const htn = enumeratePaths(HTN_TREE, { guideline_id: 'htn', language: 'en', split: 'test' }).cdps;
  const insomnia = enumeratePaths(INSOMNIA_TREE, { guideline_id: 'insomnia', language: 'zh', split: 'test' }).cdps;
  const cdps = [...htn, ...insomnia];
  const vignettes = cdps.map((c) => ({ cdp_id: c.cdp_id, vignette: writeVignette(c).vignette }));
  const byId = new Map(vignettes.map((v) => [v.cdp_id, v.vignette]));
  const unit = (c: Cdp): UnitContext => ({
    cdp: c,
    vignette: byId.get(c.cdp_id)!,
    guideline: { guideline_id: c.guideline_id },
    tree: c.guideline_id === 'htn' ? HTN_TREE : INSOMNIA_TREE,
  });
  return { htn, insomnia, vignetteOf: (c) => byId.get(c.cdp_id)!, unit };
}

export function markdownOf(cdp: Cdp): string {
  return cdp.guideline_id === 'htn' ? HTN_MARKDOWN : INSOMNIA_MARKDOWN;
}

export function singleTurnPrompt(guideline: string, vignette: string): string {
  return renderTemplate(loadTemplate('single-turn-inference', 'en'), { Guideline: guideline, Case_Vignette: vignette });
}

export function doctorSystem(guideline: string, goal: string): string {
  return renderTemplate(loadTemplate('multi-turn-inference', 'en'), { Clinical_Inquiry_Goal: goal, Guideline: guideline });
}

export function patientSystem(vignette: string): string {
  return renderTemplate(loadTemplate('multi-turn-patient-environment', 'en'), { Case_Vignette: vignette });
}

export interface DialogueResult {
  questions: string[];
  answers: string[];
  conclusion: string | null;
  /** Why the dialogue stopped without a conclusion. */
  failure?: string;
}

/** One call of a provider, as the client makes it: the text it answers. */
export async function ask(provider: Provider, messages: ChatMessage[], context?: UnitContext, model = 'agent'): Promise<string> {
  const r = await provider.callApi({ model, messages }, context);
  if (r.output === undefined) throw new Error(`${model} answered no output: ${r.error ?? 'and no error'}`);
  return r.output;
}

/**
 * Plays a whole multi-turn case as dialogues_multi does: doctor and patient alternate until a
 * conclusion or `maxTurns`, each call carrying `unit` (when given) with the goal and the exchange
 * so far for the doctor and the question for the patient.
 */
export async function runDialogue(
  doctor: Provider,
  patient: Provider,
  doctorPrompt: string,
  patientPrompt: string,
  maxTurns = 30,
  unit?: UnitContext,
  goal = '',
): Promise<DialogueResult> {
  const turns: DialogueTurn[] = [];
  const dialogue = () =>
    turns
      .filter((t) => t.answer !== undefined)
      .map((t) => ({ question: t.question, answer: t.answer === 'Yes' ? ('Yes' as const) : ('No' as const) }));
  for (let t = 0; t <= maxTurns; t++) {
    const reply = await ask(doctor, doctorMessages(doctorPrompt, turns), unit && { ...unit, goal, dialogue: dialogue() }, 'doctor');
    const parsed = parseDoctorTurn(reply);
    if (parsed.kind === 'conclusion')
      return { questions: turns.map((x) => x.question), answers: turns.map((x) => x.answer!), conclusion: parsed.conclusion };
    if (parsed.kind === 'invalid')
      return { questions: turns.map((x) => x.question), answers: turns.map((x) => x.answer!), conclusion: null, failure: parsed.reason };
    turns.push({ question: parsed.question });
    const answer = parsePatientAnswer(
      await ask(patient, patientMessages(patientPrompt, turns), unit && { ...unit, question: parsed.question }, 'patient'),
    );
    if (!answer.ok) return { questions: turns.map((x) => x.question), answers: [], conclusion: null, failure: answer.reason };
    turns[turns.length - 1]!.answer = answer.answer;
  }
  return { questions: turns.map((x) => x.question), answers: turns.map((x) => x.answer!), conclusion: null, failure: 'too many turns' };
}
