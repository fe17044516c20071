// A corpus directory: the layout read from its file list (every bad entry named with its file
// and line), and `cdp run --corpus DIR` over PDF, Markdown and text documents with imported,
// missing and invalid trees and a pinned split.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpus, parseGuidelinesCsv, languageOfText } from './corpus-layout.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WHO = 'who-2021-hypertension-pharmacological-treatment-retypeset';
const f = (path: string) => ({ path, sha256: `sha-${path}` });

describe('corpus layout', () => {
  test('documents of every format, languages from the CSV or the folder, trees matched by file name', () => {
    const csv = 'guideline_id,language,title,split,year,notes\nb-md,zh,Title B,test,2020,ignored column\n';
    const { documents, trees } = readCorpus(
      [
        f('c/guidelines/en/a-pdf.pdf'),
        f('c/guidelines/b-md.md'),
        f('c/guidelines/c-txt.txt'),
        f('c/trees/a-pdf.json'),
        f('c/guidelines.csv'),
      ],
      { path: 'c/guidelines.csv', text: csv },
    );
    assert.deepEqual(
      documents.map((d) => [d.guideline_id, d.format, d.language, d.title, d.split, d.year, d.error]),
      [
        ['a-pdf', 'pdf', 'en', null, null, null, null],
        ['b-md', 'md', 'zh', 'Title B', 'test', 2020, null],
        ['c-txt', 'txt', null, null, null, null, null],
      ],
    );
    assert.deepEqual(trees, [{ guideline_id: 'a-pdf', path: 'c/trees/a-pdf.json', sha256: 'sha-c/trees/a-pdf.json', error: null }]);
  });

  test('every bad entry is an error naming its file (and CSV line) and what to do', () => {
    const csv = [
      'guideline_id,language,split,year',
      'ok,en,,',
      'lang,fr,,',
      'badsplit,en,train,',
      'nodoc,en,,',
      ',en,,',
      'yr,en,,twenty',
      'ok,en,test,',
      'short,en',
    ].join('\n');
    const { documents, trees } = readCorpus(
      ['ok', 'lang', 'badsplit', 'yr', 'short']
        .map((id) => f(`c/guidelines/${id}.md`))
        .concat(f('c/guidelines/fr/folder.pdf'), f('c/guidelines/dup.pdf'), f('c/guidelines/dup.txt'), f('c/trees/orphan.json')),
      { path: 'c/guidelines.csv', text: csv },
    );
    const err = Object.fromEntries(documents.map((d) => [d.guideline_id, d.error]));
    assert.match(err.lang!, /^c\/guidelines\.csv line 3: unknown language 'fr' for 'lang'; the prompts exist for en, zh$/);
    assert.match(err.badsplit!, /^c\/guidelines\.csv line 4: split 'train' for 'badsplit' is neither test nor non-test$/);
    assert.match(err.nodoc!, /^c\/guidelines\.csv line 5: 'nodoc' has no document guidelines\/nodoc\.\{pdf,md,txt\}/);
    assert.match(err['c/guidelines.csv:6']!, /^c\/guidelines\.csv line 6: empty guideline_id$/);
    assert.match(err.yr!, /line 7: year 'twenty' for 'yr' is not a whole number/);
    // A guideline listed again keeps its first row; the repeated line is an error row of its own.
    assert.equal(err.ok, null);
    assert.equal(
      err['c/guidelines.csv:8'],
      "c/guidelines.csv line 8: guideline_id 'ok' is already listed on line 2, which is the one used; list each guideline once",
    );
    assert.deepEqual(
      documents.filter((d) => d.guideline_id === 'ok').map((d) => [d.language, d.split, d.path]),
      [['en', null, 'c/guidelines/ok.md']],
      "line 2's values, not line 8's (split test)",
    );
    assert.match(err.short!, /line 9: unreadable row .*each row needs 4 fields/);
    assert.match(err.folder!, /^c\/guidelines\/fr\/folder\.pdf: unknown language folder 'fr'/);
    assert.match(err.dup!, /guideline 'dup' has 2 documents \(c\/guidelines\/dup\.pdf, c\/guidelines\/dup\.txt\); keep one/);
    assert.equal(documents.length, 10);
    assert.deepEqual(
      trees.map((t) => [t.guideline_id, t.error]),
      [['orphan', 'c/trees/orphan.json: a tree for no document (no guidelines/orphan.{pdf,md,txt}); add the document or remove the tree']],
    );
  });

  test('an id listed twice: the guideline is its first row, good or bad; every later line is an error row of its own', () => {
    const csv = ['guideline_id,language,title', 'a,en,First', 'b,fr,Bad first', 'a,zh,Second', 'b,en,Good second', 'a,en,Third'].join('\n');
    const { documents } = readCorpus([f('c/guidelines/a.md'), f('c/guidelines/b.md')], { path: 'c/guidelines.csv', text: csv });
    assert.deepEqual(
      documents.map((d) => [d.guideline_id, d.language, d.title, d.error]),
      [
        ['a', 'en', 'First', null],
        ['b', null, null, "c/guidelines.csv line 3: unknown language 'fr' for 'b'; the prompts exist for en, zh"],
        [
          'c/guidelines.csv:4',
          null,
          null,
          "c/guidelines.csv line 4: guideline_id 'a' is already listed on line 2, which is the one used; list each guideline once",
        ],
        [
          'c/guidelines.csv:5',
          null,
          null,
          "c/guidelines.csv line 5: guideline_id 'b' is already listed on line 3, which is the one used; list each guideline once",
        ],
        [
          'c/guidelines.csv:6',
          null,
          null,
          "c/guidelines.csv line 6: guideline_id 'a' is already listed on line 2, which is the one used; list each guideline once",
        ],
      ],
    );
  });

  test('a CSV without guideline_id is refused on line 1; Chinese text is told from English', () => {
    assert.match(
      parseGuidelinesCsv('x.csv', 'id,language\na,en\n').errors[0].error,
      /^x\.csv line 1: no guideline_id column \(header: id, language\)/,
    );
    assert.equal(languageOfText('失眠障碍的诊断与治疗 insomnia'), 'zh');
    assert.equal(languageOfText('Insomnia: 失眠 is treated with CBT-I first, and medication only after that.'), 'en');
  });
});

const MD = [
  '# Sore throat in adults',
  '',
  'Adults with a sore throat and a fever above 38.5 degrees should be tested for streptococcus.',
  '',
  'A positive rapid antigen test should be treated with penicillin for ten days.',
  '',
  'A negative test needs symptomatic care only.',
  '',
].join('\n');
const [Q1, Q2, Q3] = MD.split('\n').filter((l) => l && !l.startsWith('#'));
const MD_TREE = {
  primary_clinical_focus: 'management',
  decision_tree: {
    index: 1,
    description: 'Does the adult with a sore throat have a fever above 38.5 degrees?',
    yes: {
      index: 2,
      description: 'Is the rapid antigen test positive?',
      yes: { index: 3, leaf: true, conclusion: 'Treat with penicillin for ten days.' },
      no: { index: 4, leaf: true, conclusion: 'Symptomatic care only.' },
    },
    no: { index: 5, leaf: true, conclusion: 'Symptomatic care only.' },
  },
  node_guideline_mapping: { '1': [Q1], '2': [Q2], '3': [Q2], '4': [Q3], '5': [Q3] },
};

const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, env);

test('cdp run --corpus DIR: a PDF with its imported tree, Markdown with a tree, text with an invalid one, one without, a pinned split', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-corpus-'));
  mkdirSync(join(dir, 'guidelines'), { recursive: true });
  mkdirSync(join(dir, 'trees'));
  copyFileSync(join(repo, 'data', 'sample', 'guidelines', 'en', `${WHO}.pdf`), join(dir, 'guidelines', `${WHO}.pdf`));
  copyFileSync(join(repo, 'data', 'sample', 'trees', `${WHO}.json`), join(dir, 'trees', `${WHO}.json`));
  writeFileSync(join(dir, 'guidelines', 'sore-throat.md'), MD);
  writeFileSync(join(dir, 'trees', 'sore-throat.json'), JSON.stringify(MD_TREE));
  writeFileSync(join(dir, 'guidelines', 'plain.txt'), MD.replace('# Sore throat in adults', 'Plain text sore throat notes'));
  writeFileSync(join(dir, 'trees', 'plain.json'), JSON.stringify({ ...MD_TREE, primary_clinical_focus: 'cure' }));
  writeFileSync(join(dir, 'guidelines', 'untreed.txt'), MD);
  writeFileSync(join(dir, 'guidelines.csv'), `guideline_id,language,split\n${WHO},en,non-test\nsore-throat,en,test\n`);
  const env = { CDP_STORE: mkdtempSync(join(tmpdir(), 'cdp-corpus-store-')) };
  const run = await cdp(['run', 'cdps', '--corpus', dir, '--json'], env);
  // Two guidelines have no usable tree: their rows fail, so the run is not ok, but cdps is built.
  const stages = Object.fromEntries(
    (JSON.parse(run.stdout) as { stages: { stage: string; status: string; rowsFailed: number }[] }).stages.map((s) => [s.stage, s]),
  );
  assert.equal(stages.cdps.status, 'ran', run.stderr);
  assert.deepEqual([stages.guidelines.rowsFailed, stages.trees.rowsFailed], [0, 2]);
  const sql = async (q: string) => JSON.parse((await cdp(['sql', q, '--json'], env)).stdout) as Record<string, unknown>[];
  assert.deepEqual(
    await sql('select guideline_id, format, language, title from guidelines order by 1'),
    [
      { guideline_id: 'plain', format: 'txt', language: 'en', title: 'Plain text sore throat notes' },
      { guideline_id: 'sore-throat', format: 'md', language: 'en', title: 'Sore throat in adults' },
      { guideline_id: 'untreed', format: 'txt', language: 'en', title: 'Sore throat in adults' },
      { guideline_id: WHO, format: 'pdf', language: 'en', title: 'Guideline for the pharmacological treatment of hypertension in adults' },
    ].sort((a, b) => (a.guideline_id < b.guideline_id ? -1 : 1)),
  );
  const trees = await sql('select guideline_id, builder, valid, error from trees order by 1');
  const by = Object.fromEntries(trees.map((t) => [t.guideline_id, t]));
  assert.deepEqual([by[WHO].builder, by[WHO].valid, by[WHO].error], ['imported', true, null]);
  assert.deepEqual([by['sore-throat'].builder, by['sore-throat'].valid], ['imported', true]);
  assert.match(String(by.plain.error), /trees\/plain\.json: not a valid tree in Prompt 1's format: primary_clinical_focus "cure"/);
  assert.match(
    String(by.untreed.error),
    /no tree for 'untreed': the corpus has no trees\/untreed\.json and no builder model is configured/,
  );
  assert.deepEqual(await sql('select guideline_id, split, count(*)::int as n from cdps group by all order by 1'), [
    { guideline_id: 'sore-throat', split: 'test', n: 3 },
    { guideline_id: WHO, split: 'non-test', n: 16 },
  ]);
});

test('cdp run --corpus DIR without a guidelines/ directory stops before anything runs, naming the directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-corpus-empty-'));
  const r = await cdp(['run', '--corpus', dir], { CDP_STORE: mkdtempSync(join(tmpdir(), 'cdp-corpus-store-')) });
  assert.notEqual(r.code, 0);
  assert.ok(r.stderr.includes(`the corpus ${dir} has no guidelines/ directory; pass --corpus DIR`), r.stderr);
});
