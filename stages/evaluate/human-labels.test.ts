import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import thresholdStage from './threshold-analysis.stage.ts';
import preferenceStage from './preference-agreement.stage.ts';
import { runTable } from './testing/stage-harness.ts';

test('human label CSVs (files-source rows, paths relative to the root) feed the threshold and preference stages', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-human-'));
  try {
    writeFileSync(join(root, 'labels.csv'), 'judge,model,score,human\nj,m,0.9,yes\nj,m,0.6,no\nj,m,0.8,yes\nj,m,oops,yes\n');
    const logs: string[] = [];
    const rows = await runTable(
      thresholdStage,
      { threshold_labels: [], human_labels: [{ path: 'labels.csv', sha256: 'x', size: 1 }] },
      {},
      logs,
      root,
    );
    const pooled = rows.filter((r) => r.model === null);
    assert.ok(rows.every((r) => r.source === 'human' && r.simulated === false && r.setting === 'all'));
    // 0.9 ✓, 0.8 ✓, 0.6 ✗: F1 = 1 for t in (0.6, 0.8]; best at the smallest, 0.65.
    assert.deepEqual(
      [pooled[0]!.n, pooled[0]!.positives, pooled[0]!.best_t, pooled[0]!.best_f1, pooled[0]!.stable_low, pooled[0]!.stable_high],
      [3, 2, 0.65, 1, 0.65, 0.8],
    );
    assert.ok(
      logs.some((l) => /labels\.csv line 5/.test(l)),
      logs.join('\n'),
    );

    writeFileSync(
      join(root, 'prefs.csv'),
      'group,pair_id,annotator,choice\ng1,p1,a,A\ng1,p1,b,A\ng1,p2,a,B\ng1,p2,b,A\ng2,p3,a,tie\ng2,p3,b,tie\n',
    );
    writeFileSync(join(root, 'pcc.csv'), 'pair_id,pcc_a,pcc_b\np1,0.1,0.5\np2,0.4,0.2\np3,0.3,0.3\n');
    const file = (path: string) => ({ path, sha256: 'x', size: 1 });
    const prefs = await runTable(
      preferenceStage,
      {
        pathway_metrics: [],
        simulated_preferences: [],
        human_preferences: [file('prefs.csv')],
        human_pair_pcc: [file('pcc.csv')],
      },
      {},
      [],
      root,
    );
    // p1: both A, PCC A → 1; p2: split A/B, PCC B → 0.5; p3: both tie, PCC tie → 1.
    assert.deepEqual(
      prefs.map((r) => [r.source, r.group, r.pairs, r.agreement, r.inter_annotator]),
      [
        ['human', 'g1', 2, 0.75, 0.5],
        ['human', 'g2', 1, 1, 1],
        ['human', 'overall', 3, 2.5 / 3, 2 / 3],
      ],
    );
    // κ overall: a = A,B,tie; b = A,A,tie → p_o = 2/3, p_e = (1/3)(2/3) + (1/3)(0) + (1/3)(1/3) = 1/3 → κ = 1/2.
    assert.ok(Math.abs((prefs[2]!.kappa as number) - 0.5) < 1e-12);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
