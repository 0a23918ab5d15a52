import { getConfig } from '../platform/config.ts';
import { unavailableAs503 } from '../platform/errors.ts';
import { readRecord } from '../platform/store.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../platform/time-units.ts';
import { type JobRecords, readJobRecords } from './job-runs.ts';
import {
  type NetworkStatus,
  type PublishStatus,
  type RecorderStatus,
  type StoredRun,
  type StoredShare,
  StoredShareSchema,
} from './jobs-schemas.ts';
import { LAST_SHARE_KEY } from './network-share-job.ts';
import { hookTarget } from './publish-job.ts';

/** docs/contract.md: the daily publish job is `stale` when its last run is more than 26 hours old. */
export const PUBLISH_STALE_AFTER_MS = 26 * HOUR_MS;
/** The sharing job runs hourly: three missed runs in a row make it `stale`. */
export const SHARE_STALE_AFTER_MS = 3 * HOUR_MS;
/** The recorder runs every 5 minutes: six missed runs in a row make it `stale`. */
export const RECORDER_STALE_AFTER_MS = 30 * MINUTE_MS;
/** Netlify stops a scheduled function after 30 s, so a run started this long ago without an end has stopped. */
export const ABANDONED_AFTER_MS = 10 * MINUTE_MS;
/** The jobs run daily and hourly; a minute of caching keeps a busy monitor off Blobs without hiding a run for long. */
export const JOB_STATUS_CACHE_SECONDS = 60;

/** Without its records a status would be a guess: 503 instead. */
export const RECORDS_UNAVAILABLE = 'job records unavailable';

const iso = (time: number) => new Date(time).toISOString();

/**
 * A job's health, in this order: `never-run` (no run ended or was abandoned), `stale` (the newest started over
 * `staleAfterMs` ago), `failing` (it failed or never ended), else `ok`. A run in progress leaves the previous one.
 */
export function jobHealthOf(
  { last, started }: JobRecords,
  now: number,
  staleAfterMs: number,
): Pick<PublishStatus, 'status' | 'lastRun'> {
  const abandoned =
    started && (!last || started.startedAt > last.startedAt) && now - started.startedAt > ABANDONED_AFTER_MS;
  const lastRun: PublishStatus['lastRun'] = abandoned
    ? {
        startedAt: iso(started.startedAt),
        finishedAt: null,
        outcome: 'failure',
        message: 'the run started but never recorded its end (stopped by a time limit or a crash)',
      }
    : last && {
        startedAt: iso(last.startedAt),
        finishedAt: iso(last.finishedAt),
        outcome: last.outcome,
        message: last.message,
      };
  if (!lastRun) return { status: 'never-run', lastRun: null };
  if (now - Math.max(last?.startedAt ?? 0, started?.startedAt ?? 0) > staleAfterMs) return { status: 'stale', lastRun };
  return { status: lastRun.outcome === 'failure' ? 'failing' : 'ok', lastRun };
}

/** The hook as the last finished run saw it; `unknown` until one called this URL (records keep its digest). */
export function hookOf(last: StoredRun | null, hookUrl: string | undefined): PublishStatus['hook'] {
  if (!hookUrl) return { configured: false, state: 'unconfigured', lastCalledAt: null, lastStatus: null };
  const call = last?.hook?.target === hookTarget(hookUrl) ? last.hook : null;
  if (!call) return { configured: true, state: 'unknown', lastCalledAt: null, lastStatus: null };
  const ok = call.status !== null && call.status >= 200 && call.status < 300;
  return { configured: true, state: ok ? 'ok' : 'failing', lastCalledAt: iso(call.calledAt), lastStatus: call.status };
}

export function publishStatusOf(records: JobRecords, now: number, hookUrl: string | undefined): PublishStatus {
  return {
    job: 'daily-publish',
    ...jobHealthOf(records, now, PUBLISH_STALE_AFTER_MS),
    hook: hookOf(records.last, hookUrl),
  };
}

/** docs/contract.md: not `fresh` within 7 days of expiry; a token without a set expiry is not known to expire. */
export function tokenOf(token: string | undefined, expiresAt: string | undefined, now: number): NetworkStatus['token'] {
  if (!token) return { configured: false, expiresAt: null, fresh: false, daysLeft: null };
  if (!expiresAt) return { configured: true, expiresAt: null, fresh: true, daysLeft: null };
  const expires = Date.parse(expiresAt);
  const left = expires - now;
  return {
    configured: true,
    expiresAt: iso(expires),
    fresh: left > 7 * DAY_MS,
    daysLeft: Math.max(0, Math.floor(left / DAY_MS)),
  };
}

/** Run health, turned `failing` while the token is missing or expired (the next run cannot share). */
export function networkStatusOf(
  records: JobRecords,
  now: number,
  token: string | undefined,
  expiresAt: string | undefined,
  lastShare: StoredShare | null,
): NetworkStatus {
  const { status } = jobHealthOf(records, now, SHARE_STALE_AFTER_MS);
  const view = tokenOf(token, expiresAt, now);
  const unusable = !view.configured || (view.expiresAt !== null && Date.parse(view.expiresAt) <= now);
  return {
    job: 'network-share',
    status: status === 'ok' && unusable ? 'failing' : status,
    token: view,
    lastShare: lastShare && { ...lastShare, at: iso(lastShare.at) },
  };
}

export function recorderStatusOf(records: JobRecords, now: number): RecorderStatus {
  const health = jobHealthOf(records, now, RECORDER_STALE_AFTER_MS);
  return { job: 'record-waits', ...health, parks: records.last?.parks ?? null };
}

/** GET /api/recorder-status. */
export async function getRecorderStatus(now = Date.now()): Promise<RecorderStatus> {
  const records = await unavailableAs503(RECORDS_UNAVAILABLE, () => readJobRecords('record-waits'));
  return recorderStatusOf(records, now);
}

/** GET /api/publish-status. */
export async function getPublishStatus(now = Date.now()): Promise<PublishStatus> {
  const records = await unavailableAs503(RECORDS_UNAVAILABLE, () => readJobRecords('daily-publish'));
  return publishStatusOf(records, now, getConfig().PUBLISH_HOOK_URL);
}

/** GET /api/professional-network-status. */
export async function getNetworkStatus(now = Date.now()): Promise<NetworkStatus> {
  const [records, lastShare] = await unavailableAs503(RECORDS_UNAVAILABLE, () =>
    Promise.all([readJobRecords('network-share'), readRecord('jobs', LAST_SHARE_KEY, StoredShareSchema)]),
  );
  const config = getConfig();
  return networkStatusOf(records, now, config.NETWORK_ACCESS_TOKEN, config.NETWORK_TOKEN_EXPIRES_AT, lastShare);
}
