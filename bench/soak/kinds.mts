import { NetworkStatusSchema, PublishStatusSchema } from '../../src/jobs/jobs-schemas.ts';
import { LocationSchema } from '../../src/location/location-schemas.ts';
import { PhotoFeedSchema } from '../../src/photo-feed/photo-feed-schemas.ts';
import * as z from '../../src/platform/zod-mini.ts';
import { WaitTimesSchema } from '../../src/wait-times/wait-times-schemas.ts';
import { random, simNow } from './setup.mts';

/** The soak's requests: what is sent, what counts as a right answer, and what sampled bodies showed. */

// ---------------------------------------------------------------------------------------------
// What is sent, and what counts as a right answer

export interface Shot {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  localAddress?: string;
}

/** A kind of request: what the report counts it under, and which answers are right. */
export interface Kind {
  name: string;
  expected: readonly number[];
  /** Checks a sampled answer with an expected status; returns what is wrong, or null. */
  check?: (status: number, body: Buffer) => string | null;
  /** Share of answers checked (1 = all). */
  checkShare?: number;
}

/** A kind of request of the weighted mix, with how to make one. */
export interface MixKind extends Kind {
  make(): Shot;
}

export const etags = new Map<string, string>();
/** With a remembered ETag for the path, half the time: a revalidating client. */
export const conditional = (shot: Shot): Shot => {
  const etag = etags.get(shot.path);
  if (etag && random() < 0.5) shot.headers = { ...shot.headers, 'If-None-Match': etag };
  return shot;
};

export const json = (value: unknown) => JSON.stringify(value);
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
export const JSON_TYPE = { 'Content-Type': 'application/json' };

export function schemaCheck(schema: z.core.$ZodType, more?: (value: never) => string | null) {
  return (status: number, body: Buffer): string | null => {
    if (status !== 200) return null;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return 'body is not JSON';
    }
    const parsed = z.safeParse(schema, value);
    if (!parsed.success) return `body does not match its schema: ${parsed.error.issues[0]?.message ?? ''}`;
    return more ? more(parsed.data as never) : null;
  };
}

/** What sampled wait-time answers showed: data age, trends, forecasts. */
export const waits = { bodies: 0, maxAgeMs: 0, rides: 0, up: 0, down: 0, forecastMoved: 0 };
export const locations = { live: 0, stale: 0 };

export const waitTimesCheck = schemaCheck(WaitTimesSchema, (body: z.output<typeof WaitTimesSchema>) => {
  waits.bodies += 1;
  waits.maxAgeMs = Math.max(waits.maxAgeMs, simNow() - body.updatedAt);
  for (const ride of body.rides) {
    waits.rides += 1;
    if (ride.trend === 'up') waits.up += 1;
    if (ride.trend === 'down') waits.down += 1;
    if (ride.forecast !== null && ride.forecast !== ride.wait) waits.forecastMoved += 1;
  }
  return body.rides.length > 0 ? null : 'no rides';
});

export const locationCheck = schemaCheck(LocationSchema, (body: z.output<typeof LocationSchema>) => {
  locations[body.status] += 1;
  return null;
});

export const photoFeedCheck = schemaCheck(PhotoFeedSchema, (body: z.output<typeof PhotoFeedSchema>) =>
  body.configured && body.items.length > 0 ? null : 'configured feed answered without items',
);

export const publishStatusCheck = schemaCheck(PublishStatusSchema);
export const networkStatusCheck = schemaCheck(NetworkStatusSchema);
