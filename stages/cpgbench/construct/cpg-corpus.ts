/**
 * A CPGBench corpus: the shared corpus layout (stages/ingest/corpus-layout.ts) in English,
 * German and Chinese, with CPGBench's own columns of guidelines.csv and its own folder:
 *
 *   DIR/guidelines/[<language>/]<guideline_id>.{pdf,md,txt}   the documents
 *   DIR/guidelines.csv          guideline_id, language, title, year, source, license (shared), and
 *                               region, specialty, institute, bona_fide (CPGBench's, all optional)
 *   DIR/recommendations/<guideline_id>.json   optional: the guideline's recommendations, imported
 *                               instead of extracted (recommendation-file.ts)
 *   DIR/human-labels.csv        optional: human labels of the answers (results/human-labels.ts)
 *
 * A value the CSV leaves empty is asked of the builder (cpg_documents). A value it gives but
 * that cannot be used (a specialty outside the ABMS list, bona_fide not yes/no) makes the
 * guideline an error row naming the file, the line's guideline and what to write instead.
 */
import { readCorpus, type CorpusDocument, type CorpusFile } from '../../ingest/corpus-layout.ts';
import { ABMS_SPECIALTIES, canonicalSpecialty } from './taxonomy.ts';

export const CPG_LANGUAGES = ['en', 'de', 'zh'] as const;

export interface CpgDocument extends CorpusDocument {
  region: string | null;
  specialty: string | null;
  institute: string | null;
  bona_fide: boolean | null;
}

export interface RecommendationFile {
  guideline_id: string;
  path: string;
  sha256: string;
  error: string | null;
}

const RECOMMENDATIONS = /(?:^|\/)recommendations\/([^/]+)\.json$/i;

function bonaFide(raw: string | undefined): boolean | null | 'bad' {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '') return null;
  if (['yes', 'true', '1'].includes(v)) return true;
  if (['no', 'false', '0'].includes(v)) return false;
  return 'bad';
}

export function readCpgCorpus(files: readonly CorpusFile[], csv: { path: string; text: string } | null): CpgDocument[] {
  const { documents, extras } = readCorpus(files, csv, CPG_LANGUAGES);
  return documents.map((d) => {
    const x = extras.get(d.guideline_id) ?? {};
    const blank = { region: null, specialty: null, institute: null, bona_fide: null };
    if (d.error) return { ...d, ...blank };
    const where = `${csv?.path ?? 'guidelines.csv'}, guideline '${d.guideline_id}'`;
    const specialty = x.specialty ? canonicalSpecialty(x.specialty) : null;
    if (x.specialty && !specialty)
      return {
        ...d,
        ...blank,
        error: `${where}: specialty '${x.specialty}' is not one of the 24 ABMS specialties (${ABMS_SPECIALTIES.join(', ')}) or Other; fix it or leave it empty for the builder to decide`,
      };
    const bf = bonaFide(x.bona_fide);
    if (bf === 'bad')
      return { ...d, ...blank, error: `${where}: bona_fide '${x.bona_fide}' must be yes or no, or empty for the builder to decide` };
    return { ...d, region: x.region || null, specialty, institute: x.institute || null, bona_fide: bf };
  });
}

/** The corpus's recommendation files; one for no document is an error naming it. */
export function recommendationFiles(files: readonly CorpusFile[], documentIds: ReadonlySet<string>): RecommendationFile[] {
  return files.flatMap((f) => {
    const m = RECOMMENDATIONS.exec(f.path);
    if (!m) return [];
    const id = m[1]!;
    const error = documentIds.has(id)
      ? null
      : `${f.path}: recommendations for no document (no guidelines/${id}.{pdf,md,txt}); add the document or remove the file`;
    return [{ guideline_id: id, path: f.path, sha256: f.sha256, error }];
  });
}
