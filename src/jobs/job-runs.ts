import { randomUUID } from 'node:crypto';
import { UpstreamError } from '../platform/errors.ts';
import { deleteRecords, listKeys, readRecord, timeKey, writeRecord } from '../platform/store.ts';
import { type JobName, RunStartSchema, type StoredRun, StoredRunSchema } from './jobs-schemas.ts';

/**
 * Runs of the scheduled jobs in the Blobs store `jobs`: `<job>/started` (a run that never ends is noticed),
 * `<job>/runs/<startedAt>-<runId>` per finished run (newest 50 kept) and `<job>/last`, the newest finished run.
 */
export const RUN_HISTORY_LIMIT = 50;

/** What a job's work reports; the run's times and id are added around it. */
export type RunReport = Pick<StoredRun, 'outcome' | 'message' | 'hook' | 'shares' | 'parks'>;
export type Run = Pick<StoredRun, 'runId' | 'job' | 'startedAt'>;

const historyPrefix = (job: JobName) => `${job}/runs/`;

/** For `.catch()`: an UpstreamError becomes the value (a run reports its message); anything else is a bug, thrown. */
export function upstreamErrorOf(error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  throw error;
}

/** Records the start, does `work`, records the end; an error recording the end is thrown (the status would be wrong). */
export async function runJob(job: JobName, work: (run: Run) => Promise<RunReport>): Promise<StoredRun> {
  const run: Run = { runId: randomUUID(), job, startedAt: Date.now() };
  // The work matters more than the record of its start: go on without it.
  await writeRecord('jobs', `${job}/started`, RunStartSchema, { runId: run.runId, startedAt: run.startedAt }).catch(
    (error: Error) => console.warn(`Job ${job}: could not record the start of the run: ${error.message}`),
  );
  let report: RunReport;
  try {
    report = await work(run);
  } catch (error) {
    console.error(`Job ${job} failed unexpectedly:`, error);
    report = { outcome: 'failure', message: 'the run stopped on an unexpected error (see the function log)' };
  }
  const record: StoredRun = { ...run, finishedAt: Date.now(), ...report };
  await writeRecord('jobs', `${historyPrefix(job)}${timeKey(run.startedAt)}-${run.runId}`, StoredRunSchema, record);
  // Two runs at once: the one that started later stays `last`, whichever ends last.
  const previous = await readRecord('jobs', `${job}/last`, StoredRunSchema);
  if (!previous || previous.startedAt <= record.startedAt)
    await writeRecord('jobs', `${job}/last`, StoredRunSchema, record);
  try {
    const keys = await listKeys('jobs', historyPrefix(job));
    if (keys.length > RUN_HISTORY_LIMIT) await deleteRecords('jobs', keys.slice(0, keys.length - RUN_HISTORY_LIMIT));
  } catch (error) {
    console.warn(`Job ${job}: could not prune the run history: ${(error as Error).message}`);
  }
  return record;
}

/** The runs of a job kept in its history, oldest first. */
export async function runHistory(job: JobName): Promise<StoredRun[]> {
  const keys = await listKeys('jobs', historyPrefix(job));
  const runs = await Promise.all(keys.map((key) => readRecord('jobs', key, StoredRunSchema)));
  return runs.filter((run) => run !== null);
}

/** What the status endpoints read: the newest finished run and the newest start. */
export async function readJobRecords(job: JobName) {
  const [last, started] = await Promise.all([
    readRecord('jobs', `${job}/last`, StoredRunSchema),
    readRecord('jobs', `${job}/started`, RunStartSchema),
  ]);
  return { last, started };
}
export type JobRecords = Awaited<ReturnType<typeof readJobRecords>>;
