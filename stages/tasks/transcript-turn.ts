/** One turn of a dialogue's transcript (dialogues_multi.turns), the doctor's or the patient's. */
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
  /** The reader's format of the reply ('strict' or its variants), null when it was unreadable. */
  format: string | null;
}
