import type { CrowdLevel } from '../wait-times/day/history-schemas.ts';

// A park's crowd level today in a few words, from GET /api/wait-times/history?park=<slug>
// (docs/wait-history.md): for the parks index, where each park has one short line. No DOM here.

/** "Busier than usual today (+18 %)", "Quieter than usual today (−12 %)", "A usual day so far", or why there is none. */
export function crowdText(crowd: CrowdLevel | null | undefined): string {
  if (!crowd?.level || crowd.ratio === null) return 'Crowd: not enough history yet today';
  const pct = Math.round(Math.abs(crowd.ratio - 1) * 100);
  if (crowd.level === 'busier') return `Busier than usual today (+${pct} %)`;
  if (crowd.level === 'quieter') return `Quieter than usual today (−${pct} %)`;
  return 'A usual day so far';
}
