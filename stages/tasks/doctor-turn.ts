/**
 * One doctor turn of a dialogue: the evaluated model is asked, its reply read by parseDoctorTurn.
 * Under `cdp run --retry-answers` (`retryAnswers`) an unreadable reply the call cache served is
 * refused (`llm.reject`) and asked once more, a fresh sample with a seed of its own; `attempt`
 * says how many fresh samples came before the reply used (0: the first one).
 */
import type { ChatRequest, ChatResult, StageLlm } from '../../pipeline/stage.ts';
import { parseDoctorTurn } from './parse-doctor-turn.ts';

export type DoctorTurn =
  { ok: false; error: string } | { ok: true; text: string; said: ReturnType<typeof parseDoctorTurn>; attempt: number };

export async function askDoctor(llm: StageLlm, request: ChatRequest, retryAnswers: boolean): Promise<DoctorTurn> {
  let d: ChatResult = await llm.chat(request);
  if (!d.ok) return { ok: false, error: d.error };
  let said = parseDoctorTurn(d.text, d.finishReason);
  if (said.kind === 'invalid' && retryAnswers && d.cached && d.call) {
    await llm.reject(d, `unreadable doctor turn re-asked (--retry-answers): ${said.reason}`);
    d = await llm.chat(request);
    if (!d.ok) return { ok: false, error: d.error };
    said = parseDoctorTurn(d.text, d.finishReason);
  }
  return { ok: true, text: d.text, said, attempt: d.call?.attempt ?? 0 };
}
