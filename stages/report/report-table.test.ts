import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { tableCsv, tableMarkdown, type ReportTable } from './report-table.ts';

const t: ReportTable = {
  name: 't',
  title: 'T',
  caption: 'C.',
  columns: ['a', 'b'],
  rows: [
    ['x|y', '1,5'],
    ['say "hi"', ''],
  ],
};

describe('report table rendering', () => {
  test('Markdown: title, caption, header, pipes escaped', () => {
    assert.equal(tableMarkdown(t), '# T\n\nC.\n\n| a | b |\n|---|---|\n| x\\|y | 1,5 |\n| say "hi" |  |\n');
  });

  test('CSV: header, RFC 4180 quoting of commas and quotes, \\n line ends, final newline', () => {
    assert.equal(tableCsv(t), 'a,b\nx|y,"1,5"\n"say ""hi""",\n');
  });

  test('a row with the wrong number of cells is refused, naming the table', () => {
    assert.throws(() => tableMarkdown({ ...t, rows: [['only one']] }), /table t: row 1 has 1 cells for 2 columns/);
  });
});
