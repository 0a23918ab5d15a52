/**
 * The backtest's sums per split, series (ride, and always `pooled` too) and part: `${segment} ${horizon}`
 * for errors (segment `all` too), `best time` for the best-time check.
 */

export type Split = 'training' | 'validation';
/** Where an origin falls, in this order: the ride's first hour open that day, a wait of 40 minutes or more, the rest. */
export const SEGMENTS = ['all', 'first hour', 'wait ≥ 40', 'rest'] as const;
export const POOLED = 'pooled';
export type Sums = Record<string, number>;

export class Tally {
  private readonly cells = new Map<string, Sums>();
  /** The series seen, in order of first appearance. */
  readonly series = new Set<string>();

  add(split: Split, series: string, parts: readonly string[], values: Readonly<Sums>): void {
    this.series.add(series);
    for (const name of [series, POOLED]) {
      for (const part of parts) {
        const cell = this.get(split, name, part) ?? {};
        for (const [key, value] of Object.entries(values)) cell[key] = (cell[key] ?? 0) + value;
        this.cells.set(`${split}|${name}|${part}`, cell);
      }
    }
  }

  get(split: Split, series: string, part: string): Sums | undefined {
    return this.cells.get(`${split}|${series}|${part}`);
  }
}
