import type { Band, ProfileBucket } from '../../src/wait-times/forecast/wait-profile-schemas.ts';

/** A learned half hour: its usual wait and, per band, the median 30-minute change and its observation count. */
export function halfHour(
  level: number,
  bands: Partial<Record<Band, readonly [shift: number, count: number]>>,
  { spread = 5, openShare = 1 } = {},
): ProfileBucket {
  const band = (name: Band) => ({ shift: bands[name]?.[0] ?? 0, count: bands[name]?.[1] ?? 0 });
  return { level, spread, bands: { low: band('low'), near: band('near'), high: band('high') }, openShare };
}
