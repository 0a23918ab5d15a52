import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coarsen, type PinState, planUpdate, publicLocation } from '../../../src/location/location.ts';
import {
  LocationSchema,
  OverlandResponseSchema,
  OwnTracksResponseSchema,
  parseIsoDateTime,
} from '../../../src/location/location-schemas.ts';
import {
  answerFor,
  type LocationUpdate,
  MAX_CLOCK_SKEW_MS,
  parseLocationUpdate,
} from '../../../src/location/location-update.ts';
import { locationFixture } from '../../support/location-fixtures.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const MINUTE = 60_000;
const SIX_HOURS = 360 * MINUTE;
const at = (iso: string) => Date.parse(iso);

describe('coarsen', () => {
  it.each([
    [48.856826, 48.86],
    [2.292713, 2.29],
    [-74.006, -74.01],
    [-25.762245, -25.76],
    [126.074502, 126.07],
    [51.0, 51],
    [0.0, 0],
    [-0.001, 0], // never "-0"
    [90, 90],
    [-180, -180],
  ])('snaps %f to %f', (degrees, expected) => {
    expect(Object.is(coarsen(degrees), expected)).toBe(true);
  });

  it('always lands on the 0.01° grid, within half a step of the true value', () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (degrees) => {
        const snapped = coarsen(degrees);
        expect(Math.abs(snapped - degrees)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(Math.abs(snapped * 100 - Math.round(snapped * 100))).toBeLessThan(1e-6);
        expect(String(snapped)).toMatch(/^-?\d+(\.\d{1,2})?$/);
      }),
    );
  });
});

describe('parseIsoDateTime', () => {
  it.each([
    ['2015-10-01T08:00:00-0700', at('2015-10-01T15:00:00Z')], // Overland: offset without a colon
    ['2015-10-01T08:00:00-07:00', at('2015-10-01T15:00:00Z')],
    ['2024-11-03T16:30:11.331+07:00', at('2024-11-03T09:30:11.331Z')],
    ['2026-01-11T10:30:00Z', at('2026-01-11T10:30:00Z')],
  ])('reads %s', (text, expected) => {
    expect(parseIsoDateTime(text)).toBe(expected);
  });

  it.each(['2015-10-01T08:00:00', '2015-10-01', 'yesterday', '2015-13-01T08:00:00Z', '1443711600'])(
    'refuses %s (no zone, no time or not a date)',
    (text) => {
      expect(parseIsoDateTime(text)).toBeNaN();
    },
  );
});

describe('parseLocationUpdate with the real client payloads', () => {
  // fixtures/location/SOURCES.md says what each one is.
  it.each<[string, string, LocationUpdate | null]>([
    ['location-owntracks-1.json', 'owntracks', { at: 1706858149_000, position: { lat: 48.856826, lon: 2.292713 } }],
    ['location-owntracks-2.json', 'owntracks', { at: 1706856298_000, position: { lat: 48.856826, lon: 2.292713 } }],
    ['location-owntracks-3.json', 'owntracks', { at: 1709283789_000, position: { lat: 52.225, lon: 13.332 } }],
    // A `transition` reaches the same URL: accepted, nothing to apply.
    ['location-owntracks-4.json', 'owntracks', null],
    ['location-owntracks-5.json', 'owntracks', { at: 1709037003_000, position: { lat: 51, lon: 0 } }],
    ['location-owntracks-6.json', 'owntracks', { at: 1721896446_000, position: { lat: -25.762245, lon: 126.074502 } }],
    ['location-owntracks-7.json', 'owntracks', { at: 1734377712_000, position: { lat: 52.085284, lon: 5.120975 } }],
    ['location-owntracks-8.json', 'owntracks', { at: 1497476456_000, position: { lat: 48.85833, lon: 2.29513 } }],
    // Queued fix: the time is `tst` (when the fix was taken), not `created_at` 9 minutes later.
    ['location-owntracks-10.json', 'owntracks', { at: 1709318411_000, position: { lat: 52.234, lon: 13.341 } }],
    // The geometry-less `will_terminate` event is newer but has no position: the point wins.
    [
      'location-overland-1.json',
      'overland',
      { at: at('2015-10-01T15:00:00Z'), position: { lat: 37.3318, lon: -122.030581 } },
    ],
    // A receiving service's GPSLogger body: lat/lon read; its `time` is not one of ours, so arrival time.
    ['location-gpslogger-1.json', 'plain', { at: NOW, position: { lat: 42.7551, lon: -1.6402 } }],
    // An iOS Shortcut dictionary: latitude/longitude and the label are read; `recorded_at` is not ours.
    ['location-shortcuts-1.json', 'plain', { at: NOW, position: { lat: 40.7128, lon: -74.006, label: 'work' } }],
  ])('reads %s as %s', (name, format, update) => {
    expect(parseLocationUpdate(locationFixture(name), NOW)).toEqual({ format, update });
  });

  it('refuses the GPSLogger GeoJSON file: no phone app POSTs it, and it has no lat/lon', () => {
    expect(() => parseLocationUpdate(locationFixture('location-gpslogger-2-geojson-file.json'), NOW)).toThrow(
      expect.objectContaining({ status: 400, details: { issues: [{ path: 'lat', message: expect.any(String) }] } }),
    );
  });
});

describe('parseLocationUpdate, plain format', () => {
  it.each<[string, unknown, LocationUpdate]>([
    ['numbers', { lat: 1.5, lon: -2.5 }, { at: NOW, position: { lat: 1.5, lon: -2.5 } }],
    ['numeric text', { lat: ' 40.7128', lon: '-74.0060' }, { at: NOW, position: { lat: 40.7128, lon: -74.006 } }],
    ['lat over latitude', { lat: 1, latitude: 2, lon: 3 }, { at: NOW, position: { lat: 1, lon: 3 } }],
    ['a label', { lat: 1, lon: 2, label: '  Lisbon ' }, { at: NOW, position: { lat: 1, lon: 2, label: 'Lisbon' } }],
    [
      'an ISO timestamp',
      { lat: 1, lon: 2, timestamp: '2026-11-21T12:30:00+01:00' },
      { at: at('2026-11-21T11:30:00Z'), position: { lat: 1, lon: 2 } },
    ],
    ['Unix ms', { lat: 1, lon: 2, timestamp: NOW - 1000 }, { at: NOW - 1000, position: { lat: 1, lon: 2 } }],
    [
      'a phone clock slightly ahead',
      { lat: 1, lon: 2, timestamp: NOW + 60_000 },
      { at: NOW, position: { lat: 1, lon: 2 } },
    ],
    ['travel mode off alone', { active: false }, { at: NOW, active: false }],
    [
      'travel mode on with a position',
      { lat: 1, lon: 2, active: true },
      { at: NOW, position: { lat: 1, lon: 2 }, active: true },
    ],
    ['the bounds', { lat: -90, lon: 180 }, { at: NOW, position: { lat: -90, lon: 180 } }],
  ])('accepts %s', (_case, body, update) => {
    expect(parseLocationUpdate(body, NOW)).toEqual({ format: 'plain', update });
  });

  it.each<[string, unknown, string]>([
    ['latitude above 90', { lat: 90.0001, lon: 0 }, 'lat'],
    ['latitude below -90', { lat: -91, lon: 0 }, 'lat'],
    ['longitude above 180', { lat: 0, lon: 180.5 }, 'lon'],
    ['longitude as text out of range', { latitude: '0', longitude: '-181' }, 'longitude'],
    ['non-numeric text', { lat: '12abc', lon: 1 }, 'lat'],
    ['empty text', { lat: '', lon: 1 }, 'lat'],
    ['null', { lat: null, lon: 1 }, 'lat'],
    ['a boolean', { lat: true, lon: 1 }, 'lat'],
    ['lat without lon', { lat: 1 }, 'lon'],
    ['no position and no switch', { label: 'x' }, 'lat'],
    ['an empty object', {}, 'lat'],
    ['Unix seconds where ms are expected', { lat: 1, lon: 2, timestamp: 1706858149 }, 'timestamp'],
    ['a timestamp without zone', { lat: 1, lon: 2, timestamp: '2026-11-21T12:00:00' }, 'timestamp'],
    ['a timestamp far in the future', { lat: 1, lon: 2, timestamp: NOW + MAX_CLOCK_SKEW_MS + 1 }, 'timestamp'],
    ['a label of 101 characters', { lat: 1, lon: 2, label: 'x'.repeat(101) }, 'label'],
    ['a label with a control character', { lat: 1, lon: 2, label: 'a\u0007b' }, 'label'],
    ['active that is not a boolean', { active: 'no' }, 'active'],
  ])('refuses %s (400, issue at %s)', (_case, body, path) => {
    expect(() => parseLocationUpdate(body, NOW)).toThrow(
      expect.objectContaining({
        status: 400,
        details: { issues: expect.arrayContaining([expect.objectContaining({ path })]) },
      }),
    );
  });

  it.each([
    ['an array', []],
    ['a string', 'lat=1'],
    ['a number', 42],
    ['null', null],
  ])('refuses %s: the body must be a JSON object', (_case, body) => {
    expect(() => parseLocationUpdate(body, NOW)).toThrow(
      expect.objectContaining({ status: 400, message: 'body must be a JSON object' }),
    );
  });
});

describe('parseLocationUpdate, OwnTracks and Overland', () => {
  const point = (coordinates: unknown[], timestamp: string) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates },
    properties: { timestamp },
  });

  it('accepts and ignores any OwnTracks message other than a location', () => {
    for (const _type of ['transition', 'waypoint', 'waypoints', 'card', 'status', 'lwt', 'steps', 'cmd', 'encrypted']) {
      expect(parseLocationUpdate({ _type, anything: [1, 2] }, NOW)).toEqual({ format: 'owntracks', update: null });
    }
  });

  it('takes the newest point of an Overland batch, `current` included, whatever the order', () => {
    const batch = {
      locations: [
        point([10, 20], '2026-11-21T11:00:00Z'),
        point([11, 21], '2026-11-21T11:30:00Z'),
        point([9, 19], '2026-11-21T10:00:00Z'),
      ],
      current: point([12, 22], '2026-11-21T11:45:00Z'),
      trip: { mode: 'car' },
    };
    expect(parseLocationUpdate(batch, NOW).update).toEqual({
      at: at('2026-11-21T11:45:00Z'),
      position: { lat: 22, lon: 12 },
    });
    expect(parseLocationUpdate({ locations: batch.locations }, NOW).update).toEqual({
      at: at('2026-11-21T11:30:00Z'),
      position: { lat: 21, lon: 11 },
    });
  });

  it('ignores a malformed `current` rather than failing a batch the app would resend forever', () => {
    const batch = {
      locations: [point([10, 20], '2026-11-21T11:00:00Z')],
      current: { type: 'Feature', geometry: { type: 'Point', coordinates: ['x'] } },
    };
    expect(parseLocationUpdate(batch, NOW).update).toEqual({
      at: at('2026-11-21T11:00:00Z'),
      position: { lat: 20, lon: 10 },
    });
  });

  it('accepts an Overland batch without points (nothing to apply)', () => {
    expect(parseLocationUpdate({ locations: [] }, NOW)).toEqual({ format: 'overland', update: null });
    expect(parseLocationUpdate({ locations: [{ type: 'Feature', properties: { action: 'pause' } }] }, NOW)).toEqual({
      format: 'overland',
      update: null,
    });
  });

  it.each<[string, unknown, string]>([
    ['an OwnTracks location without tst', { _type: 'location', lat: 1, lon: 2 }, 'tst'],
    ['an OwnTracks latitude of 100', { _type: 'location', lat: 100, lon: 2, tst: 1706858149 }, 'lat'],
    ['an OwnTracks longitude as text', { _type: 'location', lat: 1, lon: '2', tst: 1706858149 }, 'lon'],
    // Overland's OwnTracks mode counts seconds from 2001: not a plausible Unix time.
    ['an OwnTracks tst before 2000', { _type: 'location', lat: 1, lon: 2, tst: 723_000_000 }, 'tst'],
    [
      'an Overland longitude of 200',
      { locations: [point([200, 0], '2026-11-21T11:00:00Z')] },
      'locations.0.geometry.coordinates.0',
    ],
    [
      'an Overland latitude of -95',
      { locations: [point([0, -95], '2026-11-21T11:00:00Z')] },
      'locations.0.geometry.coordinates.1',
    ],
    [
      'an Overland point without a timestamp',
      { locations: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] } }] },
      'locations.0.properties.timestamp',
    ],
    [
      'an Overland line instead of a point',
      {
        locations: [
          {
            type: 'Feature',
            geometry: { type: 'LineString', coordinates: [[1, 2]] },
            properties: { timestamp: '2026-11-21T11:00:00Z' },
          },
        ],
      },
      'locations.0.geometry.type',
    ],
    ['Overland locations that are not an array', { locations: { a: 1 } }, 'locations'],
    [
      'an Overland point from the future',
      { locations: [point([1, 2], '2026-11-21T13:00:00Z')] },
      'locations.0.properties.timestamp',
    ],
  ])('refuses %s (400, issue at %s)', (_case, body, path) => {
    expect(() => parseLocationUpdate(body, NOW)).toThrow(
      expect.objectContaining({
        status: 400,
        details: { issues: expect.arrayContaining([expect.objectContaining({ path })]) },
      }),
    );
  });
});

describe('planUpdate: ordering and travel mode', () => {
  const T = at('2026-11-21T10:00:00Z');
  const fix = (time: number, extra: Partial<LocationUpdate> = {}): LocationUpdate => ({
    at: time,
    position: { lat: 48.856826, lon: 2.292713 },
    ...extra,
  });
  const on = (time: number) => ({ active: true, at: time });
  const off = (time: number) => ({ active: false, at: time });

  it.each<[string, Parameters<typeof planUpdate>[0], LocationUpdate, ReturnType<typeof planUpdate>]>([
    [
      'a first fix is stored, coarsened',
      { newestPinAt: null, travel: null },
      fix(T),
      { pin: { lat: 48.86, lon: 2.29, at: T } },
    ],
    [
      'a newer fix replaces the pin',
      { newestPinAt: T, travel: null },
      fix(T + 1),
      { pin: { lat: 48.86, lon: 2.29, at: T + 1 } },
    ],
    ['an older fix never does', { newestPinAt: T, travel: null }, fix(T - 1), {}],
    ['nor one of the same time', { newestPinAt: T, travel: null }, fix(T), {}],
    [
      'a label travels with its fix',
      { newestPinAt: null, travel: null },
      fix(T, { position: { lat: 1, lon: 2, label: 'Oslo' } }),
      { pin: { lat: 1, lon: 2, label: 'Oslo', at: T } },
    ],
    [
      '"active": false ends travel mode and drops its own position',
      { newestPinAt: T - 5, travel: null },
      fix(T, { active: false }),
      { travel: off(T) },
    ],
    ['a fix while travel mode is off is dropped', { newestPinAt: T - 5, travel: off(T - 1) }, fix(T), {}],
    [
      '"active": true starts it again',
      { newestPinAt: T - 5, travel: off(T - 1) },
      { at: T, active: true },
      { travel: on(T) },
    ],
    [
      'with its position',
      { newestPinAt: T - 5, travel: off(T - 1) },
      fix(T, { active: true }),
      { travel: on(T), pin: { lat: 48.86, lon: 2.29, at: T } },
    ],
    ['a fix taken before travel mode started again is dropped', { newestPinAt: T - 5, travel: on(T) }, fix(T - 1), {}],
    [
      'a late switch older than the stored one is ignored',
      { newestPinAt: null, travel: on(T) },
      { at: T - 1, active: false },
      {},
    ],
    [
      'a late "off" does not hide a newer pin',
      { newestPinAt: T, travel: null },
      { at: T - 1, active: false },
      { travel: off(T - 1) },
    ],
  ])('%s', (_case, state, update, writes) => {
    expect(planUpdate(state, update)).toEqual(writes);
  });
});

describe('publicLocation', () => {
  const pin = { lat: 48.86, lon: 2.29, at: NOW - 10 * MINUTE };
  const iso = new Date(pin.at).toISOString();

  it.each<[string, PinState, number, unknown]>([
    ['no pin: stale, never updated', { pin: null, travel: null }, NOW, { status: 'stale', updatedAt: null }],
    ['a recent pin: live', { pin, travel: null }, NOW, { status: 'live', lat: 48.86, lon: 2.29, updatedAt: iso }],
    [
      'exactly at the limit: still live',
      { pin, travel: null },
      pin.at + SIX_HOURS,
      { status: 'live', lat: 48.86, lon: 2.29, updatedAt: iso },
    ],
    [
      'past the limit: stale with its time',
      { pin, travel: null },
      pin.at + SIX_HOURS + 1,
      { status: 'stale', updatedAt: iso },
    ],
    [
      'travel mode off: stale with its time',
      { pin, travel: { active: false, at: NOW - MINUTE } },
      NOW,
      { status: 'stale', updatedAt: iso },
    ],
    [
      'travel mode on since before the pin: live',
      { pin, travel: { active: true, at: pin.at } },
      NOW,
      { status: 'live', lat: 48.86, lon: 2.29, updatedAt: iso },
    ],
    [
      'a pin from before travel mode started again: stale',
      { pin, travel: { active: true, at: pin.at + 1 } },
      NOW,
      { status: 'stale', updatedAt: iso },
    ],
    [
      'a label',
      { pin: { ...pin, label: 'Paris' }, travel: null },
      NOW,
      { status: 'live', lat: 48.86, lon: 2.29, updatedAt: iso, label: 'Paris' },
    ],
    [
      'a stored value finer than the grid is still coarsened',
      { pin: { ...pin, lat: 48.856826, lon: 2.292713 }, travel: null },
      NOW,
      { status: 'live', lat: 48.86, lon: 2.29, updatedAt: iso },
    ],
  ])('%s', (_case, state, now, expected) => {
    const location = publicLocation(state, now, SIX_HOURS);
    expect(location).toEqual(expected);
    expect(LocationSchema.parse(location)).toEqual(location);
  });
});

describe('answers', () => {
  const live = { status: 'live', lat: 1, lon: 2, updatedAt: '2026-11-21T12:00:00.000Z' } as const;

  it('answers OwnTracks exactly as its documentation shows: an empty array', () => {
    expect(answerFor('owntracks', live)).toEqual(locationFixture('location-owntracks-response-1.json'));
  });

  it('answers Overland exactly the object the app needs before it deletes a batch', () => {
    expect(answerFor('overland', live)).toEqual(locationFixture('location-overland-response-1.json'));
  });

  it('answers the plain format with the new GET body', () => {
    expect(answerFor('plain', live)).toBe(live);
  });

  it("describes the OwnTracks answer with a schema that also fits the Recorder's friends answer", () => {
    for (const name of ['location-owntracks-response-1.json', 'location-owntracks-response-2.json']) {
      expect(OwnTracksResponseSchema.safeParse(locationFixture(name)).success).toBe(true);
    }
    expect(OverlandResponseSchema.safeParse(locationFixture('location-overland-response-1.json')).success).toBe(true);
  });
});
