/**
 * What the project's reader of each prompt makes of a labelled answer (realistic-answers.ts), in
 * the labels' own terms: accepted with a format (and the value read) or rejected with a reason.
 * Tests compare it with each label's `expect`; the DAG test compares the stored rows as well.
 */
import { extractJson } from '../../../pipeline/llm/structured.ts';
import { parseSingleTurn } from '../../tasks/parse-single-turn.ts';
import { parseDoctorTurn } from '../../tasks/parse-doctor-turn.ts';
import { parsePatientAnswer } from '../../tasks/parse-patient-answer.ts';
import { parseStepScores } from '../../judge/parse-step-scores.ts';
import { parseOutcomeScore } from '../../judge/parse-outcome-score.ts';
import { parseNarrative } from '../../construct/narrative-parse.ts';
import { checkTreeAnswer } from '../../construct/tree-check.ts';
import { metaCommentary } from '../../construct/qc-preamble.ts';
import { HTN_MARKDOWN } from '../../agents/testing/benchmark-cases.ts';
import type { LabelledAnswer } from './realistic-answers.ts';

export type Reading = { accept: true; format: string; value?: string | number } | { accept: false; reason: string };

/** `m`, `n`: the step-score prompt's sizes (only step-score answers use them). */
export function readLabelled(a: Pick<LabelledAnswer, 'prompt' | 'text' | 'finishReason'>, m = 2, n = 2): Reading {
  const text = typeof a.text === 'string' ? a.text : a.text(m, n);
  const fr = a.finishReason;
  switch (a.prompt) {
    case 'single-turn-inference': {
      const r = parseSingleTurn(text, fr);
      return r.ok ? { accept: true, format: r.format, value: r.outcome } : { accept: false, reason: r.reason };
    }
    case 'multi-turn-inference': {
      const r = parseDoctorTurn(text, fr);
      if (r.kind === 'invalid') return { accept: false, reason: r.reason };
      return { accept: true, format: r.format, value: r.kind === 'question' ? r.question : r.conclusion };
    }
    case 'multi-turn-patient-environment': {
      const r = parsePatientAnswer(text, fr);
      return r.ok ? { accept: true, format: r.format, value: r.answer } : { accept: false, reason: r.reason };
    }
    case 'single-turn-step-level-consistency-scoring':
    case 'multi-turn-step-level-consistency-scoring': {
      const r = parseStepScores(text, m, n, fr);
      return r.ok ? { accept: true, format: r.format } : { accept: false, reason: r.problems.join('; ') };
    }
    case 'outcome-accuracy-scoring': {
      const r = parseOutcomeScore(text, fr);
      return r.ok ? { accept: true, format: r.format, value: r.score } : { accept: false, reason: r.reason };
    }
    case 'reasoning-tree-extraction': {
      const j = extractJson(text, { finishReason: fr });
      if (!j.ok) return { accept: false, reason: j.problem };
      const c = checkTreeAnswer(j.value, HTN_MARKDOWN, j.format);
      const fatal = c.problems.filter((p) => !p.startsWith('evidence not found'));
      return c.valid ? { accept: true, format: c.format } : { accept: false, reason: fatal.join('; ') };
    }
    case 'case-vignette-synthesis': {
      const hit = metaCommentary(text);
      return hit === null ? { accept: true, format: 'strict' } : { accept: false, reason: hit };
    }
    case 'reasoning-narrative-conversion': {
      const r = parseNarrative(text, 3, fr);
      return r.ok ? { accept: true, format: r.format, value: r.steps.length } : { accept: false, reason: r.problems.join('; ') };
    }
  }
}
