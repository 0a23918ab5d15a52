import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';
import { writeRecord } from '../../../src/platform/store.ts';
import { accuracyBody } from '../../../src/wait-times/accuracy/accuracy.ts';
import { SYNTHETIC_PARK, syntheticParkDays } from '../../../src/wait-times/accuracy/accuracy-example.ts';
import { AccuracySchema, ParkDayGradesSchema } from '../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { shiftDate } from '../../../src/wait-times/local-time.ts';
import { PARKS } from '../../../src/wait-times/parks.ts';
import { contractProblems } from '../../support/contract-check.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { type OpenApi, OpenApiValidator } from '../../support/openapi-validator.ts';
import { type ServedSite, startServedSite } from '../../support/served-site.ts';

// The served site reads grades this process writes into their shared store: SYNTHETIC grade
// records (the grading job's output, built elsewhere) are the input here.

const TO = '2026-11-20';
const EPCOT = syntheticParkDays('epcot', TO, 30, SYNTHETIC_PARK, { seed: 3 });
// Ends 3 days earlier: the windows still end at the newest date graded anywhere.
const ALPHALAND = syntheticParkDays('alphaland', shiftDate(TO, -3), 5, SYNTHETIC_PARK, { seed: 4 });

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let site: ServedSite;
let validator: OpenApiValidator;

beforeAll(async () => {
  blobs = await startLocalBlobs();
  for (const grades of [...EPCOT, ...ALPHALAND]) {
    await writeRecord('wait-times', `grades/${grades.park}/${grades.date}`, ParkDayGradesSchema, grades);
  }
  // Not a grade: ignored, as is a park the table does not know.
  await writeRecord('wait-times', 'grades/atlantis/2026-11-20', ParkDayGradesSchema, {
    ...(EPCOT[0] as (typeof EPCOT)[number]),
    park: 'atlantis',
  });
  site = await startServedSite({ env: { NETLIFY_BLOBS_CONTEXT: blobs.context } });
  validator = new OpenApiValidator((await buildOpenApiDocument(site.url)) as unknown as OpenApi);
});
afterAll(async () => {
  await site?.stop();
  await blobs?.stop();
});

const get = async (path: string, init?: RequestInit) => {
  const response = await fetch(`${site.url}${path}`, init);
  const text = await response.text();
  expect(contractProblems(validator, 'getAccuracy', response, text, { bodyless: init?.method === 'HEAD' })).toEqual([]);
  return { response, body: text === '' ? null : JSON.parse(text) };
};

/** What the stored grades should give, computed in-process by the same code. */
const expected = (parks: [string, typeof EPCOT][]) => accuracyBody(new Map(parks), TO);

describe('GET /api/accuracy', () => {
  it('answers every park from the stored grades, route-cached', async () => {
    const { response, body } = await get('/api/accuracy');
    expect(response.status).toBe(200);
    expect(AccuracySchema.parse(body)).toEqual(body);
    const all = PARKS.map((park): [string, typeof EPCOT] => [
      park.slug,
      park.slug === 'epcot' ? EPCOT : park.slug === 'alphaland' ? ALPHALAND : [],
    ]);
    expect(body).toEqual(expected(all));
    expect(body.windows[1].parks).toHaveLength(17);
    expect(body.windows.map(({ from, to }: { from: string; to: string }) => [from, to])).toEqual([
      ['2026-11-14', TO],
      ['2026-10-24', TO],
    ]);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(response.headers.get('netlify-vary')).toBe('query=park');
    const again = await fetch(`${site.url}/api/accuracy`);
    expect(again.headers.get('x-astro-cache')).toBe('HIT');
  });

  it('answers one park alone, its rows as among every park, pooled equal to them', async () => {
    const [{ body: one }, { body: all }] = await Promise.all([
      get('/api/accuracy?park=alphaland'),
      get('/api/accuracy'),
    ]);
    expect(one).toEqual(expected([['alphaland', ALPHALAND]]));
    for (const [index, window] of one.windows.entries()) {
      expect(window.parks).toEqual(
        all.windows[index].parks.filter((park: { park: string }) => park.park === 'alphaland'),
      );
      expect(window.pooled).toEqual(window.parks[0].horizons);
    }
    // 5 park-days of 520 forecasts at 30 minutes: a skill with its interval.
    expect(one.windows[1].parks[0].horizons[0]).toMatchObject({ minutes: 30, n: 2600, basis: 'model' });
    expect(one.windows[1].parks[0].horizons[0].skillLow).toBeLessThan(one.windows[1].parks[0].horizons[0].skill);
  });

  it('answers a park with nothing graded with days 0 and rows of n 0', async () => {
    const { response, body } = await get('/api/accuracy?park=zetawood');
    expect(response.status).toBe(200);
    expect(body.windows[0].parks[0]).toMatchObject({ park: 'zetawood', days: 0 });
    expect(body.windows[0].pooled.every((row: { n: number; skill: null }) => row.n === 0 && row.skill === null)).toBe(
      true,
    );
  });

  it.each([
    ['/api/accuracy?park=atlantis', 404, 'unknown park'],
    ['/api/accuracy?park=', 400, 'empty park'],
    ['/api/accuracy?park=EPCOT', 404, 'unknown park'],
  ])('answers %s with %i', async (path, status, error) => {
    const { response, body } = await get(path);
    expect(response.status).toBe(status);
    expect(body).toEqual({ error });
  });

  it.each([
    ['HEAD', 200],
    ['POST', 405],
  ])('answers %s with %i', async (method, status) => {
    const { response } = await get('/api/accuracy?park=epcot', { method });
    expect(response.status).toBe(status);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { response } = await get('/api/accuracy?park=epcot');
    const etag = response.headers.get('etag') ?? '';
    const { response: again } = await get('/api/accuracy?park=epcot', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});
