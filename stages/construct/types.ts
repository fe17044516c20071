/**
 * The benchmark's data model for construction, shared by tree extraction, path enumeration,
 * vignette and narrative synthesis, and the task settings. Field names follow the paper's
 * Prompt 1–3 JSON where one exists, so what a model writes can be read without renaming.
 */

export const FOCI = ['diagnosis', 'classification', 'screening', 'management'] as const;
export type ClinicalFocus = (typeof FOCI)[number];

/** A node as Prompt 1 writes it: a leaf with a conclusion, or a yes/no decision with two children. */
export interface TreeNodeJson {
  index: number;
  leaf?: boolean;
  conclusion?: string;
  description?: string;
  yes?: TreeNodeJson;
  no?: TreeNodeJson;
}

/** Prompt 1's whole output. */
export interface ReasoningTree {
  primary_clinical_focus: ClinicalFocus;
  decision_tree: TreeNodeJson;
  /** Node index (as a string key) → verbatim guideline sentences that justify the node. */
  node_guideline_mapping: Record<string, string[]>;
}

/** One row of `tree_nodes`. */
export interface TreeNodeRow {
  guideline_id: string;
  node_index: number;
  parent_index: number | null;
  /** The branch from the parent that leads here; null for the root. */
  branch: 'yes' | 'no' | null;
  is_leaf: boolean;
  /** The decision question for a non-leaf, the conclusion for a leaf. */
  text: string;
  evidence: string[];
}

/** One decision on a root-to-leaf path. */
export interface CdpStep {
  node_index: number;
  condition: string;
  decision_outcome: 'yes' | 'no';
  evidence: string[];
}

/** A clinical decision pathway: one root-to-leaf path of a guideline's tree (a row of `cdps`). */
export interface Cdp {
  /** Stable, derived from the guideline id and the path's content. */
  cdp_id: string;
  guideline_id: string;
  language: string;
  focus: ClinicalFocus;
  split: 'test' | 'non-test';
  /** Number of non-leaf nodes on the path (paper, Appendix C). */
  length: number;
  steps: CdpStep[];
  conclusion: string;
  conclusion_evidence: string[];
  leaf_index: number;
}
