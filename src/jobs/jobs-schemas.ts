import * as z from '../platform/zod-mini.ts';
import { RecorderParksSchema } from '../wait-times/recorder/recorder-schemas.ts';

/** The scheduled jobs that record their runs. */
const JobNameSchema = z.enum([
  'daily-publish',
  'grade-forecasts',
  'network-share',
  'photo-token-refresh',
  'record-waits',
]);

const isoTime = (description: string) => z.iso.datetime({ offset: true }).check(z.describe(description));
const count = () => z.int().check(z.minimum(0));
const httpStatus = () => z.int().check(z.minimum(100), z.maximum(599));
const outcome = () => z.enum(['success', 'failure']);

// Public bodies (GET /api/publish-status, GET /api/professional-network-status).

export const JobHealthSchema = z.enum(['ok', 'failing', 'stale', 'never-run']).check(
  z.meta({
    id: 'JobHealth',
    description:
      "Health of a scheduled job. `never-run`: no run has finished yet. `stale`: the newest run started longer ago than the job's period allows (26 hours for the daily publish job, 3 hours for the hourly sharing job, 30 minutes for the wait-times recorder, which runs every 5). `failing`: the newest run failed or never finished; for the sharing job also while its token is missing or expired. `ok`: otherwise. Checked in that order.",
  }),
);

export const JobRunSchema = z
  .strictObject({
    startedAt: isoTime('When the run started.'),
    finishedAt: z.nullable(
      isoTime('When the run ended; null when it never recorded an end (stopped by the platform).'),
    ),
    outcome: outcome().check(z.describe('Whether the run did its job.')),
    message: z.string().check(z.describe('What the run did or why it failed, in a sentence.')),
  })
  .check(z.meta({ id: 'JobRun', description: 'The newest finished (or abandoned) run of a job.' }));

export const PublishHookSchema = z
  .strictObject({
    configured: z.boolean().check(z.describe('Whether a build hook URL is set.')),
    state: z
      .enum(['ok', 'failing', 'unconfigured', 'unknown'])
      .check(
        z.describe(
          '`unconfigured`: no hook URL is set. `unknown`: a hook is set but no finished run has called it yet (or it was changed since). `ok`: the last call was answered with a 2xx status. `failing`: the last call was answered otherwise, or not at all.',
        ),
      ),
    lastCalledAt: z.nullable(isoTime('When the current hook was last called.')),
    lastStatus: z
      .nullable(httpStatus())
      .check(z.describe('HTTP status of the last call; null when it was not called or did not answer.')),
  })
  .check(z.meta({ id: 'PublishHook' }));

export const PublishStatusSchema = z
  .strictObject({
    job: z.literal('daily-publish'),
    status: JobHealthSchema,
    lastRun: z.nullable(JobRunSchema),
    hook: PublishHookSchema,
  })
  .check(
    z.meta({
      id: 'PublishStatus',
      description:
        'Health of the daily publish job, which calls the site build hook so that posts dated today go live.',
    }),
  );

export const NetworkTokenSchema = z
  .strictObject({
    configured: z.boolean().check(z.describe('Whether an access token is set.')),
    expiresAt: z.nullable(isoTime('When the token expires; null when no token or no expiry is set.')),
    fresh: z
      .boolean()
      .check(
        z.describe(
          'False when no token is set, or it expires within 7 days (or has expired). True without a known expiry.',
        ),
      ),
    daysLeft: z
      .nullable(count())
      .check(z.describe('Whole days until expiry, rounded down, 0 once expired; null when unknown.')),
  })
  .check(z.meta({ id: 'NetworkToken' }));

export const NetworkShareSchema = z
  .strictObject({
    at: isoTime('When the share was attempted.'),
    url: z.string().check(z.describe('Address of the post that was shared.')),
    title: z.string().check(z.describe('Title of the post that was shared.')),
    outcome: outcome(),
    message: z.string().check(z.describe('What happened, in a sentence.')),
  })
  .check(z.meta({ id: 'NetworkShare', description: 'The newest attempt to share a post.' }));

export const NetworkStatusSchema = z
  .strictObject({
    job: z.literal('network-share'),
    status: JobHealthSchema,
    token: NetworkTokenSchema,
    lastShare: z.nullable(NetworkShareSchema),
  })
  .check(
    z.meta({
      id: 'ProfessionalNetworkStatus',
      description:
        "Health of the automatic sharing job, which shares each new post of the site's feed once to the professional network.",
    }),
  );

export const RecorderStatusSchema = z
  .strictObject({
    job: z.literal('record-waits'),
    status: JobHealthSchema,
    lastRun: z.nullable(JobRunSchema),
    parks: z.nullable(RecorderParksSchema),
  })
  .check(
    z.meta({
      id: 'RecorderStatus',
      description:
        'Health of the wait-times recorder, which records the live waits of every open park every 5 minutes whoever visits.',
    }),
  );

// Stored records (Blobs store `jobs`); times are Unix milliseconds.

/** Written when a run starts, so that a run that never ends is noticed. */
export const RunStartSchema = z.object({ runId: z.nonEmpty(), startedAt: z.unixMs() });

/** One finished run of a job; kept in a bounded history and as the job's `last` record. */
export const StoredRunSchema = z.object({
  runId: z.nonEmpty(),
  job: JobNameSchema,
  startedAt: z.unixMs(),
  finishedAt: z.unixMs(),
  outcome: outcome(),
  message: z.string(),
  // A publish run's call of the build hook; `target` is a digest of the hook URL, never the URL.
  hook: z.optional(
    z.nullable(z.object({ calledAt: z.unixMs(), status: z.nullable(httpStatus()), target: z.nonEmpty() })),
  ),
  shares: z.optional(z.object({ shared: count(), failed: count(), waiting: count() })),
  // A wait-times recorder run: each park's slug under what happened to it.
  parks: z.optional(RecorderParksSchema),
});

/** The newest share attempt as stored: the public body, with `at` in Unix ms. */
export const StoredShareSchema = z.object({ ...NetworkShareSchema.shape, at: z.unixMs() });

/** A claim on one post by one run (write-once per attempt). */
export const ShareClaimSchema = z.object({
  postId: z.string(),
  url: z.string(),
  title: z.string(),
  runId: z.string(),
  claimedAt: z.unixMs(),
});

/** How an attempt to share a post ended (write-once, next to its claim). */
export const ShareResultSchema = z.object({
  at: z.unixMs(),
  outcome: outcome(),
  message: z.string(),
  httpStatus: z.nullable(z.int()),
  networkPostId: z.nullable(z.string()),
});

/** The posts already in the feed when sharing began; they are never shared. */
export const ShareBaselineSchema = z.object({ at: z.unixMs(), postIds: z.array(z.string()) });

export type JobName = z.output<typeof JobNameSchema>;
export type PublishStatus = z.output<typeof PublishStatusSchema>;
export type NetworkStatus = z.output<typeof NetworkStatusSchema>;
export type StoredRun = z.output<typeof StoredRunSchema>;
export type RecorderStatus = z.output<typeof RecorderStatusSchema>;
export type StoredShare = z.output<typeof StoredShareSchema>;
export type ShareResult = z.output<typeof ShareResultSchema>;
