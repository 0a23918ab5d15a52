import { createRecord, listKeys } from '../../platform/store.ts';
import { readDay } from '../day/day-store.ts';
import { dayBoundsOf } from '../local-time.ts';
import { findPark } from '../parks.ts';
import { GRADES_PREFIX, gradesKeyOf, type ParkDayGrades, ParkDayGradesSchema } from './accuracy-schemas.ts';
import { updateForecastBases } from './basis-update.ts';
import { gradeDay } from './grading.ts';
import { archivedDays, readServedDay, servedByRide } from './served-store.ts';

/**
 * The grading job's work (jobs/grade-forecasts-job.ts): each archived park-day that has ended in
 * the park's time zone is graded once, into `grades/<slug>/<YYYY-MM-DD>` of the `wait-times` store,
 * written only if new, so that of two runs at once one writes and the other counts it as graded;
 * then, when a day was graded, each park's forecast basis is decided again (basis-update.ts).
 */

export interface GradingReport {
  /** `<slug>/<date>` of each park-day this run graded. */
  graded: string[];
  /** Archived park-days already graded, by an earlier run or one at the same time. */
  alreadyGraded: number;
  /** Archived park-days not over yet in the park's time zone. */
  notFinished: number;
  /** Park-days that could not be graded, with the reason (the day record is gone, Blobs failed). */
  failed: { day: string; error: string }[];
  /** Parks whose 30-minute `forecast` changed basis this run (`<slug> to persistence|model`; basis-update.ts). */
  switched: string[];
}

/** Grades every finished, ungraded archived park-day (three reads and a write-once write each). */
export async function gradeFinishedDays(now: number): Promise<GradingReport> {
  const [archived, gradedKeys] = await Promise.all([archivedDays(), listKeys('wait-times', GRADES_PREFIX)]);
  const graded = new Set(gradedKeys);
  const report: GradingReport = { graded: [], alreadyGraded: 0, notFinished: 0, failed: [], switched: [] };
  for (const { slug, date } of archived) {
    const park = findPark(slug);
    if (!park) continue;
    if (dayBoundsOf(date, park.timezone).endsAt > now) report.notFinished += 1;
    else if (graded.has(gradesKeyOf(slug, date))) report.alreadyGraded += 1;
    else {
      const day = `${slug}/${date}`;
      try {
        if (await gradeParkDay(slug, date, now)) report.graded.push(day);
        else report.alreadyGraded += 1;
      } catch (error) {
        report.failed.push({ day, error: (error as Error).message });
      }
    }
  }
  // The 28-day rows change only when a day is graded: the basis is decided again then.
  if (report.graded.length > 0) {
    try {
      report.switched = await updateForecastBases(now);
    } catch (error) {
      report.failed.push({ day: 'forecast basis', error: (error as Error).message });
    }
  }
  return report;
}

/** Grades one park-day and writes it if no grade is there yet: whether this call wrote it. */
async function gradeParkDay(slug: string, date: string, now: number): Promise<boolean> {
  const [served, day] = await Promise.all([readServedDay(slug, date), readDay(slug, date)]);
  if (!served) throw new Error('the archive is gone');
  if (!day) throw new Error('the day record is gone');
  const grades: ParkDayGrades = {
    version: 1,
    park: slug,
    date,
    gradedAt: now,
    ...gradeDay(servedByRide(served), day),
  };
  return createRecord('wait-times', gradesKeyOf(slug, date), ParkDayGradesSchema, grades);
}
