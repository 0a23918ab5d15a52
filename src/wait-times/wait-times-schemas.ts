import * as z from '../platform/zod-mini.ts';

/** Longer posted waits are upstream glitches (the backtest's longest is 390): never learned, forecasts stop here. */
export const MAX_WAIT_MINUTES = 480;

const TrendSchema = z.enum(['up', 'down', 'flat']).check(
  z.meta({
    id: 'Trend',
    description:
      'Change of the wait against a sample 20 to 45 minutes earlier: `up` when it rose by 5 minutes or more, `down` when it fell by 5 or more, otherwise `flat` (also when there is no earlier sample or the ride was closed then or is closed now).',
  }),
);

export const RideSchema = z
  .strictObject({
    id: z
      .int()
      .check(
        z.describe(
          "The provider's ride id (queue-times.com): what `POST /api/alerts` takes as `ride`, stable from day to day.",
        ),
      ),
    name: z.string().check(z.describe('Ride name as the provider spells it.')),
    wait: z.int().check(z.minimum(0), z.describe('Current posted wait in minutes (0 when closed or not posted).')),
    open: z.boolean().check(z.describe('Whether the ride is operating now.')),
    trend: TrendSchema,
    forecast: z
      .nullable(z.int().check(z.minimum(0), z.maximum(MAX_WAIT_MINUTES), z.multipleOf(5)))
      .check(
        z.describe(
          "Projected wait about 30 minutes after `updatedAt`, in minutes (a multiple of 5 from 0 to 480): the current wait adjusted by how this ride's wait has usually changed at this time of day on days of today's kind (the park closing by 19:00 or later, from its published hours), or the current wait itself until that is learned, or where this park's graded forecasts of the last 28 days did worse than no change (GET /api/accuracy, `basis`); null when the ride is closed.",
        ),
      ),
  })
  .check(z.meta({ id: 'Ride' }));

export const SourceSchema = z
  .literal('queue-times.com')
  .check(z.describe('The upstream provider. Credit it: "Powered by Queue-Times.com".'));

export const WaitTimesSchema = z
  .strictObject({
    updatedAt: z.unixMs().check(z.describe('Unix time in milliseconds of the upstream fetch that produced the data.')),
    source: SourceSchema,
    rides: z.array(RideSchema).check(z.describe('Rides of the park, sorted by name.')),
  })
  .check(z.meta({ id: 'WaitTimes' }));

export type Trend = z.output<typeof TrendSchema>;
export type Ride = z.output<typeof RideSchema>;
export type WaitTimes = z.output<typeof WaitTimesSchema>;
