/**
 * Stage `cpg_task_inputs`: the two tasks' inputs derived from each passing conversation (§4.4):
 * the detection conversation (every message, markers removed) and the adherence prompt (the
 * conversation cut before its first marked assistant message, ending with the patient's turn).
 * Its rows without an error are the benchmark's items; a conversation that failed upstream is a
 * failure row here too (the runner's), so it is counted, never silently dropped.
 */
import { rowStage } from '../../../pipeline/stage.ts';
import { adherenceMessages, detectionConversation, type Message } from './conversation.ts';

const MESSAGES = 'STRUCT(role VARCHAR, content VARCHAR)[]';

export default rowStage({
  inputs: { cpg_conversations: 'drives' },
  params: {},
  columns: {
    recommendation_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    detection_messages: MESSAGES,
    adherence_messages: MESSAGES,
    adherence_turns: 'INTEGER',
  },
  run({ row }) {
    const messages = row.messages as Message[];
    const adherence = adherenceMessages(messages);
    return {
      recommendation_id: row.recommendation_id,
      guideline_id: row.guideline_id,
      language: row.language,
      detection_messages: detectionConversation(messages),
      adherence_messages: adherence,
      adherence_turns: adherence.length,
    };
  },
});
