import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ridesOf } from '../../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../../src/wait-times/queue-times-schemas.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/queue-times');
const load = (file: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
const fixtureFiles = readdirSync(FIXTURES).filter((file) => file.endsWith('.json'));
// Recorded answers of /parks/{id}/queue_times.json; the others are other endpoints or providers.
const parkPayloads = fixtureFiles.filter((file) => file.startsWith('queue-times-') && !file.includes('parks-list'));
const otherPayloads = fixtureFiles.filter((file) => !parkPayloads.includes(file));

interface RawRide {
  id: number;
}
const rawIds = (payload: unknown): number[] => {
  const park = payload as { lands: { rides: RawRide[] }[]; rides: RawRide[] };
  return [...park.lands.flatMap((land) => land.rides), ...park.rides].map((ride) => ride.id);
};

describe('the queue-times park schema', () => {
  it('knows every recorded fixture', () => {
    expect(parkPayloads.length).toBeGreaterThanOrEqual(5);
    expect(otherPayloads.length).toBeGreaterThanOrEqual(2);
  });

  it.each(parkPayloads)('accepts the real payload %s', (file) => {
    expect(QueueTimesParkSchema.safeParse(load(file)).success).toBe(true);
  });

  it.each(otherPayloads)('rejects %s, which is not a park wait-time payload', (file) => {
    expect(QueueTimesParkSchema.safeParse(load(file)).success).toBe(false);
  });

  const ride = { id: 1, name: 'Ride', is_open: true, wait_time: 10, last_updated: '2024-05-23T18:40:04.000Z' };
  it.each([
    ['a closed park', { lands: [], rides: [] }],
    ['rides only at top level', { lands: [], rides: [ride] }],
    ['extra fields anywhere', { lands: [{ id: 1, name: 'L', rides: [{ ...ride, extra: 1 }], x: 2 }], rides: [], y: 3 }],
    ['a wait that is not a multiple of 5', { lands: [], rides: [{ ...ride, wait_time: 13 }] }],
  ])('accepts %s', (_case, payload) => {
    expect(QueueTimesParkSchema.safeParse(payload).success).toBe(true);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['an empty object', {}],
    ['lands that are not an array', { lands: 'x', rides: [] }],
    ['a ride without is_open', { lands: [], rides: [{ id: 1, name: 'R', wait_time: 5 }] }],
    ['a negative wait', { lands: [], rides: [{ ...ride, wait_time: -5 }] }],
    ['a wait given as text', { lands: [], rides: [{ ...ride, wait_time: '10' }] }],
    ['an absurd wait', { lands: [], rides: [{ ...ride, wait_time: 1e9 }] }],
    ['a ride id that is not a number', { lands: [], rides: [{ ...ride, id: 'a' }] }],
    ['a malformed timestamp', { lands: [], rides: [{ ...ride, last_updated: 'yesterday' }] }],
  ])('rejects %s', (_case, payload) => {
    expect(QueueTimesParkSchema.safeParse(payload).success).toBe(false);
  });
});

describe('ridesOf', () => {
  it.each(parkPayloads)('returns each ride of %s exactly once', (file) => {
    const payload = load(file);
    const rides = ridesOf(QueueTimesParkSchema.parse(payload));
    expect(rides.map((r) => r.id).sort()).toEqual([...new Set(rawIds(payload))].sort());
  });

  it('counts rides from lands and from the top level, once each', () => {
    const ride = (id: number, name: string) => ({ id, name, is_open: true, wait_time: 5 });
    const park = QueueTimesParkSchema.parse({
      lands: [{ id: 1, name: 'Land', rides: [ride(1, 'A'), ride(2, 'B')] }],
      rides: [ride(2, 'B again'), ride(3, 'C')],
    });
    expect(ridesOf(park).map((r) => [r.id, r.name])).toEqual([
      [1, 'A'],
      [2, 'B'],
      [3, 'C'],
    ]);
  });

  it('trims trailing spaces from names and keeps closed rides as closed', () => {
    const park = QueueTimesParkSchema.parse({
      lands: [],
      rides: [{ id: 9, name: 'Le Carrousel ', is_open: false, wait_time: 0 }],
    });
    expect(ridesOf(park)).toEqual([{ id: 9, name: 'Le Carrousel', wait: 0, open: false }]);
  });
});
