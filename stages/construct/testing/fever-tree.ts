/** A small tree in Prompt 1's shape, shared by the tree tests: fever → temperature ≥ 39 C. */
import type { TreeNodeJson } from '../types.ts';

export function feverDecisionTree(): TreeNodeJson {
  return {
    index: 1,
    description: 'Is fever present?',
    yes: {
      index: 2,
      description: 'Is temperature >= 39 C?',
      yes: { index: 4, leaf: true, conclusion: 'Admit' },
      no: { index: 5, leaf: true, conclusion: 'Treat as outpatient' },
    },
    no: { index: 3, leaf: true, conclusion: 'No infection work-up' },
  };
}
