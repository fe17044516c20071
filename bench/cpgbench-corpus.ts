/**
 * A deterministic CPGBench corpus of the paper's size for the scale benchmark: 3,418 guideline
 * documents (Markdown) holding 32,155 recommendations in all, shipped as
 * recommendations/<id>.json (so no builder is needed), 6,632 of them flagged safety-critical,
 * over the paper's regions (in its shares: Canada 22.3%, UK 21.7%, Germany 19.2%, USA 13.3%,
 * Australia 11.9%, the rest less than 10%), the 24 ABMS specialties and Other, the years
 * 2015–2025, in English, German (Germany) and Chinese (Chinese Mainland, Hong Kong, Taiwan).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ABMS_SPECIALTIES } from '../stages/cpgbench/construct/taxonomy.ts';
// The scale corpus's PRNG, so both synthetic corpora are the same on every machine.
import { rng } from './scale-corpus.ts';

export const CPG_PAPER = { documents: 3418, recommendations: 32155, safety: 6632, models: 8 };

const REGIONS: [string, number, 'en' | 'de' | 'zh'][] = [
  ['Canada', 0.223, 'en'],
  ['United Kingdom', 0.217, 'en'],
  ['Germany', 0.192, 'de'],
  ['United States', 0.133, 'en'],
  ['Australia', 0.119, 'en'],
  ['Japan', 0.03, 'en'],
  ['Chinese Mainland', 0.025, 'zh'],
  ['Hong Kong', 0.015, 'zh'],
  ['Taiwan', 0.012, 'zh'],
  ['WHO', 0.024, 'en'],
  ['ESNM', 0.01, 'en'],
];

const SENTENCE = {
  en: (i: number, topic: string) =>
    `Clinicians should offer treatment option ${i} to adults with ${topic} when the criteria of section ${i} are met.`,
  de: (i: number, topic: string) =>
    `Bei Erwachsenen mit ${topic} soll Maßnahme ${i} angeboten werden, wenn die Kriterien von Abschnitt ${i} erfüllt sind.`,
  zh: (i: number, topic: string) => `对于${topic}的成人患者，符合第${i}节标准时应提供第${i}项治疗方案。`,
};
const TOPIC = { en: 'condition', de: 'Erkrankung', zh: '疾病' };

export interface CpgScaleCorpus {
  dir: string;
  documents: number;
  recommendations: number;
  safety: number;
}

/** Writes the corpus at `fraction` of the paper's size into `dir`. */
export function writeCpgScaleCorpus(dir: string, fraction = 1): CpgScaleCorpus {
  const random = rng(20260424);
  const documents = Math.max(1, Math.round(CPG_PAPER.documents * fraction));
  const total = Math.max(documents, Math.round(CPG_PAPER.recommendations * fraction));
  const safetyShare = CPG_PAPER.safety / CPG_PAPER.recommendations;
  for (const l of ['en', 'de', 'zh']) mkdirSync(join(dir, 'guidelines', l), { recursive: true });
  mkdirSync(join(dir, 'recommendations'), { recursive: true });
  const csv = ['guideline_id,language,title,year,region,specialty,institute,bona_fide,source,license'];
  let written = 0,
    safety = 0;
  for (let d = 0; d < documents; d++) {
    // Recommendations per document: 1–18 around the paper's mean (9.4), the last document taking the remainder.
    const left = documents - d - 1;
    const k = d === documents - 1 ? total - written : Math.max(1, Math.min(total - written - left, 1 + Math.floor(random() * 17)));
    let u = random();
    const [region, , language] = REGIONS.find((x) => (u -= x[1]) <= 0) ?? REGIONS[REGIONS.length - 1]!;
    const id = `cpg-${String(d).padStart(5, '0')}`;
    const specialty = random() < 0.04 ? 'Other' : ABMS_SPECIALTIES[Math.floor(random() * ABMS_SPECIALTIES.length)]!;
    const year = 2015 + Math.floor(random() * 11);
    const topic = `${TOPIC[language]} ${d}`;
    const recs = Array.from({ length: k }, (_, i) => {
      const text = SENTENCE[language](i + 1, topic);
      const critical = random() < safetyShare;
      if (critical) safety++;
      return {
        recommendation: text,
        strength: 'strong',
        evidence_level: 'B',
        context: `Adults with ${topic}.`,
        action: text,
        goal: 'Better outcomes.',
        safety_critical: critical,
      };
    });
    written += k;
    const title = `Synthetic guideline ${d} on ${topic} (${region}, ${year})`;
    writeFileSync(
      join(dir, 'guidelines', language, `${id}.md`),
      `# ${title}\n\n## Recommendations\n\n${recs.map((x) => x.recommendation).join('\n\n')}\n`,
    );
    writeFileSync(join(dir, 'recommendations', `${id}.json`), JSON.stringify({ recommendations: recs }));
    csv.push(`${id},${language},${title.replace(/,/g, ';')},${year},${region},${specialty},Synthetic institute,yes,synthetic,CC0-1.0`);
  }
  writeFileSync(join(dir, 'guidelines.csv'), csv.join('\n') + '\n');
  return { dir, documents, recommendations: written, safety };
}
