import { expect } from 'vitest';

/** How many responses had each status. */
export const statuses = (responses: Response[]) =>
  responses.reduce<Record<number, number>>((counts, { status }) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

/**
 * The guarantee of a per-client limit under concurrency: never more than `limit` of `total`
 * admitted, every other answer a 429 (or a 503 when Blobs, the arbiter, could not keep up on a
 * loaded machine: refused, never let through). When Blobs kept up, exactly `limit` are admitted.
 */
export function expectLimited(
  counts: Record<number, number>,
  admittedStatuses: number[],
  limit: number,
  total: number,
): number {
  const admitted = admittedStatuses.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  const refused = (counts[429] ?? 0) + (counts[503] ?? 0);
  expect(admitted).toBeLessThanOrEqual(limit);
  expect(admitted + refused).toBe(total);
  if (!counts[503]) expect(admitted).toBe(limit);
  return admitted;
}
