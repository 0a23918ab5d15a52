import { getConfig } from '../platform/config.ts';
import { ServiceUnavailableError } from '../platform/errors.ts';
import { readRecord } from '../platform/store.ts';
import { hookTarget } from './build-hook.ts';
import { readJobRecords } from './job-runs.ts';
import {
  type JobHealth,
  type JobRun,
  type NetworkShare,
  type NetworkStatus,
  type NetworkToken,
  type PublishHook,
  type PublishStatus,
  type RunStart,
  type StoredRun,
  type StoredShare,
  StoredShareSchema,
} from './jobs-schemas.ts';
import { LAST_SHARE_KEY } from './network-share-job.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** CONTRACT: the daily publish job is `stale` when its last run is more than 26 hours old. */
export const PUBLISH_STALE_AFTER_MS = 26 * HOUR;
/** The sharing job runs hourly: three missed runs in a row make it `stale`. */
export const SHARE_STALE_AFTER_MS = 3 * HOUR;
/**
 * A run that started this long ago without recording its end has stopped for good: scheduled
 * functions are stopped after 30 seconds on Netlify, and every call a job makes has a timeout.
 */
export const ABANDONED_AFTER_MS = 10 * 60_000;
/** CONTRACT: the token is not `fresh` within 7 days of its expiry. */
export const TOKEN_FRESH_MARGIN_MS = 7 * DAY;
/** The jobs run daily and hourly; a minute of caching keeps a busy monitor off Blobs without hiding a run for long. */
export const JOB_STATUS_CACHE_SECONDS = 60;

export interface JobRecords {
  last: StoredRun | null;
  started: RunStart | null;
}

const iso = (time: number) => new Date(time).toISOString();

/**
 * The health of a job from its records, in this order: `never-run` (no run finished or was
 * abandoned), `stale` (the newest run started more than `staleAfterMs` ago), `failing` (the
 * newest finished run failed, or a newer one never finished), else `ok`. A run still in
 * progress leaves the previous run as `lastRun`.
 */
export function jobHealthOf(
  records: JobRecords,
  now: number,
  staleAfterMs: number,
): { status: JobHealth; lastRun: JobRun | null } {
  const { last, started } = records;
  const unfinished = started && (!last || started.startedAt > last.startedAt) ? started : null;
  const abandoned = unfinished && now - unfinished.startedAt > ABANDONED_AFTER_MS ? unfinished : null;
  const lastRun: JobRun | null = abandoned
    ? {
        startedAt: iso(abandoned.startedAt),
        finishedAt: null,
        outcome: 'failure',
        message: 'the run started but never recorded its end (stopped by a time limit or a crash)',
      }
    : last
      ? {
          startedAt: iso(last.startedAt),
          finishedAt: iso(last.finishedAt),
          outcome: last.outcome,
          message: last.message,
        }
      : null;
  if (!lastRun) return { status: 'never-run', lastRun: null };
  const newestStart = Math.max(last?.startedAt ?? 0, started?.startedAt ?? 0);
  if (now - newestStart > staleAfterMs) return { status: 'stale', lastRun };
  return { status: lastRun.outcome === 'failure' ? 'failing' : 'ok', lastRun };
}

/**
 * The build hook as the last finished run saw it. `unknown` while a configured hook has not
 * been called by a finished run, or the URL changed since (records keep a digest of the URL).
 */
export function hookOf(last: StoredRun | null, hookUrl: string | undefined): PublishHook {
  if (!hookUrl) return { configured: false, state: 'unconfigured', lastCalledAt: null, lastStatus: null };
  const call = last?.hook && last.hook.target === hookTarget(hookUrl) ? last.hook : null;
  if (!call) return { configured: true, state: 'unknown', lastCalledAt: null, lastStatus: null };
  const ok = call.status !== null && call.status >= 200 && call.status < 300;
  return { configured: true, state: ok ? 'ok' : 'failing', lastCalledAt: iso(call.calledAt), lastStatus: call.status };
}

export function publishStatusOf(records: JobRecords, now: number, hookUrl: string | undefined): PublishStatus {
  const { status, lastRun } = jobHealthOf(records, now, PUBLISH_STALE_AFTER_MS);
  return { job: 'daily-publish', status, lastRun, hook: hookOf(records.last, hookUrl) };
}

/** Token freshness from the configuration: no expiry set means it is not known to expire. */
export function tokenOf(token: string | undefined, expiresAt: string | undefined, now: number): NetworkToken {
  if (!token) return { configured: false, expiresAt: null, fresh: false, daysLeft: null };
  if (!expiresAt) return { configured: true, expiresAt: null, fresh: true, daysLeft: null };
  const expires = Date.parse(expiresAt);
  const left = expires - now;
  return {
    configured: true,
    expiresAt: iso(expires),
    fresh: left > TOKEN_FRESH_MARGIN_MS,
    daysLeft: Math.max(0, Math.floor(left / DAY)),
  };
}

/**
 * The sharing job's status: its run health, turned `failing` while the token is missing or
 * expired (the next run cannot share), unless the job never ran or is stale.
 */
export function networkStatusOf(
  records: JobRecords,
  now: number,
  token: string | undefined,
  expiresAt: string | undefined,
  lastShare: StoredShare | null,
): NetworkStatus {
  const health = jobHealthOf(records, now, SHARE_STALE_AFTER_MS);
  const tokenView = tokenOf(token, expiresAt, now);
  const unusable = !tokenView.configured || (tokenView.expiresAt !== null && Date.parse(tokenView.expiresAt) <= now);
  const share: NetworkShare | null = lastShare
    ? {
        at: iso(lastShare.at),
        url: lastShare.url,
        title: lastShare.title,
        outcome: lastShare.outcome,
        message: lastShare.message,
      }
    : null;
  return {
    job: 'network-share',
    status: health.status === 'ok' && unusable ? 'failing' : health.status,
    token: tokenView,
    lastShare: share,
  };
}

/** GET /api/publish-status. */
export async function getPublishStatus(now = Date.now()): Promise<PublishStatus> {
  const records = await readOrUnavailable(() => readJobRecords('daily-publish'));
  return publishStatusOf(records, now, getConfig().PUBLISH_HOOK_URL);
}

/** GET /api/professional-network-status. */
export async function getNetworkStatus(now = Date.now()): Promise<NetworkStatus> {
  const [records, lastShare] = await readOrUnavailable(() =>
    Promise.all([readJobRecords('network-share'), readRecord('jobs', LAST_SHARE_KEY, StoredShareSchema)]),
  );
  const config = getConfig();
  return networkStatusOf(records, now, config.NETWORK_ACCESS_TOKEN, config.NETWORK_TOKEN_EXPIRES_AT, lastShare);
}

/** Without its records a status would be a guess: answer 503 instead. */
async function readOrUnavailable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    console.warn(`Job records unavailable: ${(error as Error).message}`);
    throw new ServiceUnavailableError('job records unavailable');
  }
}
