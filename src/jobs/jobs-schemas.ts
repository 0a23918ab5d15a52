import * as z from 'zod';

/** The scheduled jobs that record their runs. */
export const JobNameSchema = z.enum(['daily-publish', 'network-share', 'photo-token-refresh']);

const isoTime = (description: string) => z.iso.datetime({ offset: true }).meta({ description });

// ---------------------------------------------------------------------------------------------
// Public bodies (GET /api/publish-status, GET /api/professional-network-status)
// ---------------------------------------------------------------------------------------------

export const JobHealthSchema = z.enum(['ok', 'failing', 'stale', 'never-run']).meta({
  id: 'JobHealth',
  description:
    "Health of a scheduled job. `never-run`: no run has finished yet. `stale`: the newest run started longer ago than the job's period allows (26 hours for the daily publish job, 3 hours for the hourly sharing job). `failing`: the newest run failed or never finished; for the sharing job also while its token is missing or expired. `ok`: otherwise. Checked in that order.",
});

export const JobRunSchema = z
  .object({
    startedAt: isoTime('When the run started.'),
    finishedAt: isoTime('When the run ended; null when it never recorded an end (stopped by the platform).').nullable(),
    outcome: z.enum(['success', 'failure']).meta({ description: 'Whether the run did its job.' }),
    message: z.string().meta({ description: 'What the run did or why it failed, in a sentence.' }),
  })
  .strict()
  .meta({ id: 'JobRun', description: 'The newest finished (or abandoned) run of a job.' });

export const PublishHookSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether a build hook URL is set.' }),
    state: z.enum(['ok', 'failing', 'unconfigured', 'unknown']).meta({
      description:
        '`unconfigured`: no hook URL is set. `unknown`: a hook is set but no finished run has called it yet (or it was changed since). `ok`: the last call was answered with a 2xx status. `failing`: the last call was answered otherwise, or not at all.',
    }),
    lastCalledAt: isoTime('When the current hook was last called.').nullable(),
    lastStatus: z
      .int()
      .min(100)
      .max(599)
      .nullable()
      .meta({ description: 'HTTP status of the last call; null when it was not called or did not answer.' }),
  })
  .strict()
  .meta({ id: 'PublishHook' });

export const PublishStatusSchema = z
  .object({
    job: z.literal('daily-publish'),
    status: JobHealthSchema,
    lastRun: JobRunSchema.nullable(),
    hook: PublishHookSchema,
  })
  .strict()
  .meta({
    id: 'PublishStatus',
    description: 'Health of the daily publish job, which calls the site build hook so that posts dated today go live.',
  });

export const NetworkTokenSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether an access token is set.' }),
    expiresAt: isoTime('When the token expires; null when no token or no expiry is set.').nullable(),
    fresh: z.boolean().meta({
      description:
        'False when no token is set, or it expires within 7 days (or has expired). True without a known expiry.',
    }),
    daysLeft: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'Whole days until expiry, rounded down, 0 once expired; null when unknown.' }),
  })
  .strict()
  .meta({ id: 'NetworkToken' });

export const NetworkShareSchema = z
  .object({
    at: isoTime('When the share was attempted.'),
    url: z.string().meta({ description: 'Address of the post that was shared.' }),
    title: z.string().meta({ description: 'Title of the post that was shared.' }),
    outcome: z.enum(['success', 'failure']),
    message: z.string().meta({ description: 'What happened, in a sentence.' }),
  })
  .strict()
  .meta({ id: 'NetworkShare', description: 'The newest attempt to share a post.' });

export const NetworkStatusSchema = z
  .object({
    job: z.literal('network-share'),
    status: JobHealthSchema,
    token: NetworkTokenSchema,
    lastShare: NetworkShareSchema.nullable(),
  })
  .strict()
  .meta({
    id: 'ProfessionalNetworkStatus',
    description:
      "Health of the automatic sharing job, which shares each new post of the site's feed once to the professional network.",
  });

// ---------------------------------------------------------------------------------------------
// Stored records (Blobs store `jobs`); times are Unix milliseconds
// ---------------------------------------------------------------------------------------------

/** Written when a run starts, so that a run that never ends is noticed. */
export const RunStartSchema = z.object({
  runId: z.string().min(1),
  startedAt: z.int().min(0),
});

/** The build hook call of a publish run. `target` is a digest of the hook URL, never the URL. */
export const HookCallSchema = z.object({
  calledAt: z.int().min(0),
  status: z.int().min(100).max(599).nullable(),
  target: z.string().min(1),
});

/** One finished run of a job; kept in a bounded history and as the job's `last` record. */
export const StoredRunSchema = z.object({
  runId: z.string().min(1),
  job: JobNameSchema,
  startedAt: z.int().min(0),
  finishedAt: z.int().min(0),
  outcome: z.enum(['success', 'failure']),
  message: z.string(),
  hook: HookCallSchema.nullable().optional(),
  shares: z.object({ shared: z.int().min(0), failed: z.int().min(0), waiting: z.int().min(0) }).optional(),
});

/** The newest share attempt, as the status endpoint shows it. */
export const StoredShareSchema = z.object({
  at: z.int().min(0),
  url: z.string(),
  title: z.string(),
  outcome: z.enum(['success', 'failure']),
  message: z.string(),
});

/** A claim on one post by one run (write-once per attempt). */
export const ShareClaimSchema = z.object({
  postId: z.string(),
  url: z.string(),
  title: z.string(),
  runId: z.string(),
  claimedAt: z.int().min(0),
});

/** How an attempt to share a post ended (write-once, next to its claim). */
export const ShareResultSchema = z.object({
  at: z.int().min(0),
  outcome: z.enum(['success', 'failure']),
  message: z.string(),
  httpStatus: z.int().nullable(),
  networkPostId: z.string().nullable(),
});

/** The posts already in the feed when sharing began; they are never shared. */
export const ShareBaselineSchema = z.object({
  at: z.int().min(0),
  postIds: z.array(z.string()),
});

export type JobName = z.output<typeof JobNameSchema>;
export type JobHealth = z.output<typeof JobHealthSchema>;
export type JobRun = z.output<typeof JobRunSchema>;
export type PublishHook = z.output<typeof PublishHookSchema>;
export type PublishStatus = z.output<typeof PublishStatusSchema>;
export type NetworkToken = z.output<typeof NetworkTokenSchema>;
export type NetworkShare = z.output<typeof NetworkShareSchema>;
export type NetworkStatus = z.output<typeof NetworkStatusSchema>;
export type RunStart = z.output<typeof RunStartSchema>;
export type HookCall = z.output<typeof HookCallSchema>;
export type StoredRun = z.output<typeof StoredRunSchema>;
export type StoredShare = z.output<typeof StoredShareSchema>;
export type ShareClaim = z.output<typeof ShareClaimSchema>;
export type ShareResult = z.output<typeof ShareResultSchema>;
export type ShareBaseline = z.output<typeof ShareBaselineSchema>;
