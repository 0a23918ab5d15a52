import { type GradingReport, gradeFinishedDays } from '../wait-times/accuracy/grade-days.ts';
import { runJob } from './job-runs.ts';
import type { StoredRun } from './jobs-schemas.ts';

/** The run's sentence: counts, each park-day that failed with its reason, then any park whose forecast basis switched. */
export function gradingMessage({ graded, alreadyGraded, notFinished, failed, switched }: GradingReport): string {
  const failures = failed.length ? `: ${failed.map((f) => `${f.day} (${f.error})`).join('; ')}` : '';
  const bases = switched.length ? `; the 30-minute forecast switched: ${switched.join(', ')}` : '';
  return `graded ${graded.length}${graded.length ? ` (${graded.join(', ')})` : ''}, already graded ${alreadyGraded}, not finished ${notFinished}, failed ${failed.length}${failures} of the archived park-days${bases}`;
}

/**
 * The grading of served forecasts as a job run (src/wait-times/accuracy/grade-days.ts): every
 * archived park-day that has ended and is not graded yet; a failure when any park-day failed.
 */
export function runGradeForecastsJob(): Promise<StoredRun> {
  return runJob('grade-forecasts', async () => {
    const report = await gradeFinishedDays(Date.now());
    return { outcome: report.failed.length > 0 ? 'failure' : 'success', message: gradingMessage(report) };
  });
}
