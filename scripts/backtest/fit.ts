/**
 * `npm run backtest -- --fit`: the two weights per horizon of outlook.ts's BLEND, by least absolute
 * deviations of `outcome − wait` on `a·(chained − wait) + b·(parkRatio·usual − wait)`, over the
 * training days only (the replay stops before the first validation day).
 */

type Row = readonly [target: number, chained: number, usual: number];

const costOf = (rows: readonly Row[], a: number, b: number) =>
  rows.reduce((sum, [target, chained, usual]) => sum + Math.abs(target - a * chained - b * usual), 0);

/** The weights [a, b] (to 0.01) that minimise the absolute error: a pattern search on a convex cost. */
export function fitLad(rows: readonly Row[]): [number, number] {
  let [a, b, step] = [1, 0, 0.32];
  let best = costOf(rows, a, b);
  while (step >= 0.01) {
    // The eight neighbours on a grid of this step.
    const moves = [0, 1, 2, 3, 5, 6, 7, 8].map((k) => [((k % 3) - 1) * step, (Math.floor(k / 3) - 1) * step] as const);
    const better = moves.find(([da, db]) => costOf(rows, a + da, b + db) < best);
    if (better) {
      [a, b] = [a + better[0], b + better[1]];
      best = costOf(rows, a, b);
    } else step /= 2;
  }
  return [Math.round(a * 100) / 100, Math.round(b * 100) / 100];
}
