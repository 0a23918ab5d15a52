import { PARKS } from '../parks.ts';
import { inWindowOf, readGrades, rowOf, WINDOW_DAYS } from './accuracy.ts';
import type { BasisRecord } from './accuracy-schemas.ts';
import { nextBasis, readBasisRecord, writeBasisRecord } from './forecast-basis.ts';

/** The window the rule reads: the scorecard's longest, the last 28 graded dates. */
const BASIS_WINDOW_DAYS = Math.max(...WINDOW_DAYS);

/**
 * The grading job's last step (grade-days.ts): for each park, the scorecard's 28-day row at 30
 * minutes (the same grades, window and bootstrap as GET /api/accuracy), the hysteresis rule applied
 * against the park's stored basis, and `basis/<slug>` written. A park never graded and never
 * decided keeps no record (the model). Returns the parks whose basis changed, as `<slug> to <basis>`.
 */
export async function updateForecastBases(now: number): Promise<string[]> {
  const { gradesByPark, newest } = await readGrades(PARKS);
  const switched: string[] = [];
  for (const park of PARKS) {
    const days = inWindowOf(gradesByPark.get(park.slug) ?? [], newest, BASIS_WINDOW_DAYS);
    const row = rowOf(
      30,
      days.map((day) => day.horizons[30]),
    );
    const previous = await readBasisRecord(park.slug);
    if (!previous && row.n === 0) continue;
    const basis = nextBasis(previous?.horizon30 ?? 'model', row);
    const record: BasisRecord = {
      version: 1,
      park: park.slug,
      horizon30: basis,
      since: previous && previous.horizon30 === basis ? previous.since : now,
      decidedAt: now,
      through: newest,
      n: row.n,
      skillLow: row.skillLow,
      skillHigh: row.skillHigh,
    };
    await writeBasisRecord(record);
    if (basis !== (previous?.horizon30 ?? 'model')) switched.push(`${park.slug} to ${basis}`);
  }
  return switched;
}
