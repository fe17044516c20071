// List items by their marker at the start of a line. Bullets become "-" items; numbered markers
// are kept verbatim ("1.", "(1)", "（1）", "一、") because guideline text cites them ("see item 3").

export interface ListMarker {
  marker: string;
  ordered: boolean;
  /** Text after the marker. */
  rest: string;
}

const BULLET = /^([•▪▫◦●○■□◆◇‣⁃∙·–\-ï])\s+(.*)$/u;
const NUMBERED = [
  /^(\d{1,2}\.\d{1,2}(?: ?\([A-Z]\))?)\s+(\p{Lu}.*)$/u, // 1.1 / 4.1(L) numbered recommendations ("1.5 mg" is not)
  /^(\d{1,2}[.)])\s+(\S.*)$/u, // 1. / 1)  (a space is required: "1.5 mg" is not an item)
  /^(\d{1,2}\.)(\p{Script=Han}.*)$/u, // 1.注意障碍 (Chinese text sets no space)
  /^(\(\d{1,2}\)|（\d{1,2}）)\s*(\S.*)$/u, // (1) / （1）
  /^([a-z][.)])\s+(\S.*)$/u, // a. / a)
  /^(\([a-z]\))\s+(\S.*)$/u, // (a)
  /^([一二三四五六七八九十]{1,3}、)\s*(\S.*)$/u, // 一、
  /^(（[一二三四五六七八九十]{1,3}）)\s*(\S.*)$/u, // （一）
];

export function listMarker(text: string): ListMarker | null {
  const t = text.trim();
  const b = BULLET.exec(t);
  if (b) return { marker: '-', ordered: false, rest: b[2]! };
  for (const re of NUMBERED) {
    const m = re.exec(t);
    if (m) return { marker: m[1]!, ordered: true, rest: m[2]! };
  }
  return null;
}

/** The Markdown line prefix: bullets as "- ", "1." / "1)" as Markdown ordered items, others verbatim after "- ". */
export function markdownItemPrefix(marker: string): string {
  if (marker === '-') return '- ';
  if (/^\d+[.)]$/.test(marker)) return marker + ' ';
  // Full-width markers carry their own spacing in CJK typesetting.
  return /[）、]$/.test(marker) ? `- ${marker}` : `- ${marker} `;
}
