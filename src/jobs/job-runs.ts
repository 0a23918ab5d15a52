import { randomUUID } from 'node:crypto';
import { deleteRecords, listKeys, readRecord, timeKey, writeRecord } from '../platform/store.ts';
import { type JobName, type RunStart, RunStartSchema, type StoredRun, StoredRunSchema } from './jobs-schemas.ts';

/**
 * Every run of a scheduled job is recorded in the Blobs store `jobs`:
 * - `<job>/started`: written when a run starts (a run that never ends is then noticed);
 * - `<job>/runs/<startedAt>-<runId>`: one record per finished run, write-once, newest 50 kept;
 * - `<job>/last`: the newest finished run, what the status endpoints read.
 */

/** Runs kept per job; older ones are deleted after each run. */
export const RUN_HISTORY_LIMIT = 50;

/** What a job's work reports; the run's times and id are added around it. */
export type RunReport = Pick<StoredRun, 'outcome' | 'message'> & Partial<Pick<StoredRun, 'hook' | 'shares'>>;

export interface Run {
  job: JobName;
  runId: string;
  startedAt: number;
}

const startedKey = (job: JobName) => `${job}/started`;
const lastKey = (job: JobName) => `${job}/last`;
const historyPrefix = (job: JobName) => `${job}/runs/`;
const historyKey = (run: Run) => `${historyPrefix(run.job)}${timeKey(run.startedAt)}-${run.runId}`;

/**
 * Runs one job: records its start, does `work`, records its end. An error thrown by `work` is
 * recorded as a failure (and logged); an error recording the end is thrown, because then the
 * status endpoints would not tell the truth.
 */
export async function runJob(job: JobName, work: (run: Run) => Promise<RunReport>): Promise<StoredRun> {
  const run: Run = { job, runId: randomUUID(), startedAt: Date.now() };
  try {
    await writeRecord('jobs', startedKey(job), RunStartSchema, { runId: run.runId, startedAt: run.startedAt });
  } catch (error) {
    // The work matters more than the record of its start: go on, the end is recorded below.
    console.warn(`Job ${job}: could not record the start of the run: ${(error as Error).message}`);
  }
  let report: RunReport;
  try {
    report = await work(run);
  } catch (error) {
    console.error(`Job ${job} failed unexpectedly:`, error);
    report = { outcome: 'failure', message: 'the run stopped on an unexpected error (see the function log)' };
  }
  return finishRun(run, report);
}

/** Records the end of a run: its history entry, the `last` record, then prunes the history. */
export async function finishRun(run: Run, report: RunReport, finishedAt = Date.now()): Promise<StoredRun> {
  const record: StoredRun = {
    runId: run.runId,
    job: run.job,
    startedAt: run.startedAt,
    finishedAt,
    outcome: report.outcome,
    message: report.message,
    ...(report.hook === undefined ? {} : { hook: report.hook }),
    ...(report.shares === undefined ? {} : { shares: report.shares }),
  };
  await writeRecord('jobs', historyKey(run), StoredRunSchema, record);
  // Two runs at once: the one that started later stays `last`, whichever ends last.
  const previous = await readRecord('jobs', lastKey(run.job), StoredRunSchema);
  if (!previous || previous.startedAt <= record.startedAt) {
    await writeRecord('jobs', lastKey(run.job), StoredRunSchema, record);
  }
  await pruneHistory(run.job).catch((error: Error) =>
    console.warn(`Job ${run.job}: could not prune the run history: ${error.message}`),
  );
  return record;
}

/** Deletes all but the newest `limit` runs of a job. */
export async function pruneHistory(job: JobName, limit = RUN_HISTORY_LIMIT): Promise<void> {
  const keys = await listKeys('jobs', historyPrefix(job));
  const excess = keys.slice(0, Math.max(0, keys.length - limit));
  if (excess.length > 0) await deleteRecords('jobs', excess);
}

/** The runs of a job kept in its history, oldest first. */
export async function runHistory(job: JobName): Promise<StoredRun[]> {
  const keys = await listKeys('jobs', historyPrefix(job));
  const runs = await Promise.all(keys.map((key) => readRecord('jobs', key, StoredRunSchema)));
  return runs.filter((run): run is StoredRun => run !== null);
}

/** What the status endpoints need: the newest finished run and the newest start. */
export async function readJobRecords(job: JobName): Promise<{ last: StoredRun | null; started: RunStart | null }> {
  const [last, started] = await Promise.all([
    readRecord('jobs', lastKey(job), StoredRunSchema),
    readRecord('jobs', startedKey(job), RunStartSchema),
  ]);
  return { last, started };
}
