/**
 * The categories CPGBench reports by (§2.2): the 9 countries and regions and 2 international
 * organizations its guidelines come from, and the 24 specialties of the American Board of
 * Medical Specialties (ABMS), plus "Other", which the paper's figures also show.
 */

export const PAPER_REGIONS = [
  'United States',
  'Canada',
  'United Kingdom',
  'Germany',
  'Australia',
  'Japan',
  'Chinese Mainland',
  'Hong Kong',
  'Taiwan',
  'WHO',
  'ESNM',
] as const;

/** The ABMS's 24 member boards' specialties. */
export const ABMS_SPECIALTIES = [
  'Allergy and Immunology',
  'Anesthesiology',
  'Colon and Rectal Surgery',
  'Dermatology',
  'Emergency Medicine',
  'Family Medicine',
  'Internal Medicine',
  'Medical Genetics and Genomics',
  'Neurological Surgery',
  'Nuclear Medicine',
  'Obstetrics and Gynecology',
  'Ophthalmology',
  'Orthopaedic Surgery',
  'Otolaryngology – Head and Neck Surgery',
  'Pathology',
  'Pediatrics',
  'Physical Medicine and Rehabilitation',
  'Plastic Surgery',
  'Preventive Medicine',
  'Psychiatry and Neurology',
  'Radiology',
  'Surgery',
  'Thoracic Surgery',
  'Urology',
] as const;

export const OTHER_SPECIALTY = 'Other';

/** A specialty as a builder or a CSV writes it, matched to the list (case, dashes and "&" folded), or null. */
export function canonicalSpecialty(name: string): string | null {
  const fold = (s: string) => s.toLowerCase().replace(/&/g, 'and').replace(/[–—-]/g, ' ').replace(/\s+/g, ' ').trim();
  const want = fold(name);
  if (want === 'other') return OTHER_SPECIALTY;
  return ABMS_SPECIALTIES.find((s) => fold(s) === want) ?? null;
}

/** The bulleted list the builder's prompts show (Prompts 1 and 6). */
export const bulletList = (names: readonly string[]) => names.map((n) => `- ${n}`).join('\n');
