/**
 * The patient's clinical inquiry goal of the multi-turn setting (Prompt 6's
 * {Clinical_Inquiry_Goal}). The paper gives no rule for writing it, so this one is ours:
 *
 *   en (and any language without its own wording):
 *     Determine the appropriate <focus> for this patient according to the guideline "<title>".
 *   zh:
 *     请根据指南《<title>》确定该患者的<诊断|分类|筛查|管理>方案。
 *
 * <focus> is the CDP's primary clinical focus (diagnosis, classification, screening,
 * management), <title> the guideline's title (its id when the title is empty). The goal names
 * the task and the guideline only, never a finding of the case: the doctor must ask for every
 * criterion, as the setting intends, and a goal that leaked the case would let a model skip
 * questions.
 */

const ZH_FOCUS: Record<string, string> = { diagnosis: '诊断', classification: '分类', screening: '筛查', management: '管理' };

export function clinicalInquiryGoal(focus: string, title: string, language: string): string {
  const f = focus.trim() || 'management';
  const t = title.replace(/\s+/g, ' ').trim();
  if (language.split('-')[0]!.toLowerCase() === 'zh') return `请根据指南《${t}》确定该患者的${ZH_FOCUS[f] ?? f}方案。`;
  return `Determine the appropriate ${f} for this patient according to the guideline "${t}".`;
}
