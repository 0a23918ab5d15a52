import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedParkHistory } from '../../../scripts/demo/seed-history.mts';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { startBlobsServer } from '../../../server/blobs.mts';
import { CREDIT, HOURS_CREDIT } from '../../../src/mcp/tools.ts';
import { BASE_HEADERS } from '../../../src/platform/http.ts';
import { WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { PARK_WITH_DAY, SEEDED_CROWD } from '../../support/browser-harness.ts';
import { baseHeadersOf } from '../../support/http-headers.ts';
import { MCP_TOOL_NAMES } from '../../support/mcp-tools.ts';
import { type ServedSite, startServedSite } from '../../support/served-site.ts';

let upstream: FakeQueueTimes;
let site: ServedSite;
let client: Client;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  // The fake serves SYNTHETIC schedules too: EPCOT's day is 09:00-21:00 (scripts/fake-park-hours.mts).
  site = await startServedSite({
    env: { WAIT_TIMES_UPSTREAM_URL: upstream.url, PARK_HOURS_UPSTREAM_URL: upstream.url },
  });
  client = new Client({ name: 'site-api-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', site.url)));
});
afterAll(async () => {
  await client?.close();
  await site?.stop();
  await upstream?.close();
});

const text = (result: Record<string, unknown>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');
const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${site.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body,
  });

describe('POST /mcp with the SDK client', () => {
  it('negotiates the newest protocol without a session and lists the seven read-only tools with schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('site-api');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const initialize = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get('mcp-session-id')).toBeNull();
    expect(initialize.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await initialize.json()).result.protocolVersion).toBe('2025-11-25');
  });

  it("list_parks lists every park with its slug and today's hours, as GET /api/parks does, with the hours credit", async () => {
    const result = await call('list_parks');
    const { parks, hoursCredit } = result.structuredContent as {
      parks: Record<string, unknown>[];
      hoursCredit: string;
    };
    const body = await (await fetch(`${site.url}/api/parks`)).json();
    expect(parks).toHaveLength(17);
    // The clock is real: a park may open or close between the two answers (or within the route
    // cache's minutes), so `openNow` is compared only away from those moments.
    const withoutOpenNow = ({ openNow: _, ...park }: Record<string, unknown>) => park;
    expect(parks.map(withoutOpenNow)).toEqual(body.parks.map(withoutOpenNow));
    const nearOpeningOrClosing = (park: Record<string, unknown>) => {
      const hours = park.hours as { opensAt: number; closesAt: number } | null;
      return hours !== null && [hours.opensAt, hours.closesAt].some((at) => Math.abs(at - Date.now()) < 10 * 60_000);
    };
    parks.forEach((park, index) => {
      if (!nearOpeningOrClosing(park)) expect(park.openNow).toBe(body.parks[index].openNow);
    });
    expect(parks).toContainEqual(
      expect.objectContaining({ slug: 'epcot', name: 'EPCOT', timeZone: 'America/New_York' }),
    );
    expect(hoursCredit).toBe(HOURS_CREDIT);
    expect(text(result)).toMatch(/^epcot: EPCOT, 09:00–21:00 park time \((open|closed) now\)$/m);
    expect(text(result)).toContain(HOURS_CREDIT);
  });

  it('get_wait_times answers what GET /api/wait-times does, from the same cached fetch, with the credit', async () => {
    const result = await call('get_wait_times', { park: 'Epcot' });
    const structured = result.structuredContent as Record<string, unknown>;
    const body = await (await fetch(`${site.url}/api/wait-times?park=epcot`)).json();
    expect(WaitTimesSchema.parse(body)).toEqual(body);
    expect(structured).toEqual({ park: 'epcot', parkName: 'EPCOT', ...body, credit: CREDIT });
    expect(text(result)).toContain('Powered by Queue-Times.com (https://queue-times.com/)');
    expect(upstream.count('/parks/5/queue_times.json')).toBe(1);
  });

  it('get_park_day answers the history body with the crowd level and the credit', async () => {
    const result = await call('get_park_day', { park: 'epcot' });
    const { parkName, credit, hoursCredit, ...body } = result.structuredContent as Record<string, unknown>;
    expect(WaitHistorySchema.parse(body)).toEqual(body);
    expect(body.hours).not.toBeNull();
    expect(parkName).toBe('EPCOT');
    expect(credit).toBe(CREDIT);
    expect(hoursCredit).toBe(HOURS_CREDIT);
    expect(text(result)).toMatch(
      /^EPCOT on \d{4}-\d{2}-\d{2}: 09:00–21:00 park time \((open|closed) now\); crowd not known yet/,
    );
    expect(upstream.count('/parks/5/queue_times.json')).toBe(1);
  });

  it('when_to_ride finds a misspelled ride and, with nothing learned yet, names no best time', async () => {
    const { rides } = await (await fetch(`${site.url}/api/wait-times?park=epcot`)).json();
    const ride = rides.find((entry: { name: string; open: boolean }) => entry.open && entry.name.length > 8);
    const misspelled = ride.name.toUpperCase().slice(0, 3) + ride.name.slice(4);
    const result = await call('when_to_ride', { park: 'epcot', ride: misspelled });
    expect(result.isError).toBeFalsy();
    const { hours } = await (await fetch(`${site.url}/api/wait-times/history?park=epcot`)).json();
    expect(result.structuredContent).toMatchObject({
      park: 'epcot',
      ride,
      bestTime: null,
      closesAt: hours.closesAt,
      forecastSkill: null,
      credit: CREDIT,
      hoursCredit: HOURS_CREDIT,
    });
    expect(text(result)).toContain('too little is learned about its usual day yet');
    expect(text(result)).toContain('Too few forecasts graded here yet to say how good they are.');
    expect(text(result)).toContain('The park closes at 21:00 park time.');
  });

  it('forecast_accuracy answers the scorecard as GET /api/accuracy does, for every park or one', async () => {
    const all = await call('forecast_accuracy');
    expect(all.isError).toBeFalsy();
    const body = await (await fetch(`${site.url}/api/accuracy`)).json();
    expect(all.structuredContent).toEqual({ ...body, credit: CREDIT });
    expect(text(all)).toMatch(/^All parks pooled, last 28 graded days \(nothing graded yet\):\n30 min: Nothing graded/);
    expect(text(all)).toContain(CREDIT);
    const one = await call('forecast_accuracy', { park: 'Epcott' });
    expect((one.structuredContent as { windows: { parks: { park: string }[] }[] }).windows[1]?.parks).toEqual([
      expect.objectContaining({ park: 'epcot', days: 0 }),
    ]);
    expect(text(one)).toMatch(/^EPCOT, last 28 graded days/);
  });

  it('get_location answers the public pin as GET /api/location does', async () => {
    const result = await call('get_location');
    const body = await (await fetch(`${site.url}/api/location`)).json();
    expect(result.structuredContent).toEqual({ location: body });
    expect(text(result)).toContain('No current pin');
  });

  it('matches a park by slug, name, case, accents and close spelling', async () => {
    for (const park of ['magic-kingdom', 'MAGIC KINGDOM', 'Mägic Kingdom', 'magik kingdom', 'magickingdom']) {
      const result = await call('get_wait_times', { park });
      expect(result.isError, park).toBeFalsy();
      expect((result.structuredContent as { park: string }).park).toBe('magic-kingdom');
    }
  });

  it('answers an unknown park or ride with a tool error listing the nearest names', async () => {
    const park = await call('get_wait_times', { park: 'Studios Holywod Park' });
    expect(park.isError).toBe(true);
    expect(park.structuredContent).toBeUndefined();
    expect(text(park)).toMatch(/^Unknown park "Studios Holywod Park"\. Nearest: .*beta-studios-hollywood/);
    const ride = await call('when_to_ride', { park: 'epcot', ride: 'Zzzzzz Qqqqq' });
    expect(ride.isError).toBe(true);
    expect(text(ride)).toMatch(/^Unknown ride at EPCOT "Zzzzzz Qqqqq"\. Nearest: (.+, ){4}.+\.$/);
  });
});

describe('when_to_ride with a learned usual day', () => {
  it('names the best time still ahead, as GET /api/wait-times/history does, in park time', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-mcp-'));
    const blobs = await startBlobsServer(dataDir);
    // A park well inside its local day now, as the browser tier's seeded park (the real clock runs).
    await seedParkHistory(PARK_WITH_DAY, Date.now(), SEEDED_CROWD);
    await blobs.stop();
    const seeded = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url }, dataDir });
    const seededClient = new Client({ name: 'site-api-test', version: '1.0.0' });
    try {
      await seededClient.connect(new StreamableHTTPClientTransport(new URL('/mcp', seeded.url)));
      const day = WaitHistorySchema.parse(
        await (await fetch(`${seeded.url}/api/wait-times/history?park=${PARK_WITH_DAY}`)).json(),
      );
      const ride = day.rides.find((entry) => entry.bestTime !== null);
      if (!ride?.bestTime) throw new Error(`the seeded day of ${PARK_WITH_DAY} has no ride with a best time`);
      const result = await seededClient.callTool({
        name: 'when_to_ride',
        arguments: { park: PARK_WITH_DAY, ride: ride.name },
      });
      expect(result.structuredContent).toMatchObject({ park: PARK_WITH_DAY, bestTime: ride.bestTime });
      const clock = new Intl.DateTimeFormat('en-GB', { timeZone: day.timeZone, hour: '2-digit', minute: '2-digit' });
      const best = `about ${clock.format(ride.bestTime.at)} park time, around ${ride.bestTime.wait} min`;
      const { wait } = (result.structuredContent as { ride: { wait: number } }).ride;
      expect(text(result)).toContain(
        wait > ride.bestTime.wait
          ? `Best time still ahead: ${best}`
          : `Now is as good as it gets: the lowest wait expected later today is ${best}`,
      );
    } finally {
      await seededClient.close();
      await seeded.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('MCP discovery', () => {
  it('the API catalog, the API reference and the Agent Skill say where and how to connect', async () => {
    const catalog = await (await fetch(`${site.url}/.well-known/api-catalog`)).json();
    const mcp = catalog.linkset.find((context: { anchor: string }) => new URL(context.anchor).pathname === '/mcp');
    expect(new URL(mcp['service-doc'][0].href).pathname + new URL(mcp['service-doc'][0].href).hash).toBe(
      '/docs/api/#mcp',
    );
    const reference = await (await fetch(`${site.url}/docs/api/`)).text();
    expect(reference).toContain('id="mcp"');
    for (const tool of MCP_TOOL_NAMES) {
      expect(reference).toContain(`<code>${tool}</code>`);
    }
    const skill = await (await fetch(`${site.url}/.well-known/agent-skills/park-wait-times/SKILL.md`)).text();
    const snippet = /```json\n(\{\s*"mcpServers"[\s\S]*?)\n```/.exec(skill)?.[1] ?? '{}';
    expect(new URL(JSON.parse(snippet).mcpServers['site-api'].url).pathname).toBe('/mcp');
  });
});

describe('POST /mcp over plain HTTP', () => {
  it('answers GET and DELETE with 405 and Allow, and a preflight with CORS for any origin', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${site.url}/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect((await response.json()).error.code).toBe(-32000);
    }
    const preflight = await fetch(`${site.url}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Mcp-Protocol-Version');
  });

  it('answers malformed JSON with a JSON-RPC parse error, and an unknown method with method-not-found', async () => {
    const malformed = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe(-32700);
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/subscribe-all' }));
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('refuses a body over 64 KiB with a JSON-RPC error, not a 500', async () => {
    const padding = 'x'.repeat(70 * 1024);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { padding } } });
    const response = await post(body);
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe(-32000);
  });
});

describe('the answers of /mcp', () => {
  // The local runtime adds nothing to a function's answer, as Netlify adds nothing.
  it("carry the site's base headers, whoever built them: the SDK, a 405, a preflight, a JSON-RPC error", async () => {
    const answers = [
      await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
      await post('{'),
      await fetch(`${site.url}/mcp`, { headers: { Accept: 'text/event-stream' } }),
      await fetch(`${site.url}/mcp`, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 405, 204]);
    for (const answer of answers) expect(baseHeadersOf(answer)).toEqual(BASE_HEADERS);
  });
});

describe('POST /mcp rate limit', () => {
  it('admits 60 calls a minute per client and answers the next with 429, Retry-After and a JSON-RPC error', async () => {
    const fresh = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url }, clock: true });
    try {
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const send = () =>
        fetch(`${fresh.url}/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: list,
        });
      // The server's clock stands still, as if all 61 came at once: on a busy machine they may take
      // longer than the minute, and the first would leave the window.
      await fresh.holdClock(true);
      for (let i = 0; i < 60; i++) expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(baseHeadersOf(refused)).toEqual(BASE_HEADERS);
    } finally {
      await fresh.stop();
    }
  });
});
