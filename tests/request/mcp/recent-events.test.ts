import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleMcpRequest } from '../../../src/mcp/mcp-server.ts';
import { CREDIT } from '../../../src/mcp/tools.ts';
import { writeRecord } from '../../../src/platform/store.ts';
import { type ParkEvent, ParkEventsSchema, parkEventsKey } from '../../../src/wait-times/events/event-schemas.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { MCP_TOOL_NAMES } from '../../support/mcp-tools.ts';

// The MCP tool `recent_events` in-process: the SDK's client talks to the request handler through
// its `fetch` option, over a real local Blobs store holding a park's events.

const HOUR = 60 * 60_000;
const now = Date.now();
const event = (type: ParkEvent['type'], hoursAgo: number, ride: ParkEvent['ride'], waitNow: number | null) => {
  const at = now - hoursAgo * HOUR;
  return { id: `epcot/${type}/${ride?.id ?? 'park'}/${at}`, type, park: 'epcot', at, ride, waitNow, forecast: waitNow };
};
const TRACK = { id: 159, name: 'Test Track' };
const SOARIN = { id: 151, name: "Soarin' Around the World" };
const EVENTS: ParkEvent[] = [
  { ...event('wait-below', 1, SOARIN, 20), band: 20 },
  { ...event('ride-reopened', 2, TRACK, 45), downMinutes: 25 },
  { ...event('ride-down', 2.5, TRACK, null), downMinutes: 10, reopenWithin: null, outages: 0 },
  event('park-opened', 5, null, null),
  event('park-opened', 49, null, null), // kept by a recorder that has not polled since: not told
];

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let client: Client;
beforeAll(async () => {
  blobs = await startLocalBlobs();
  await writeRecord('wait-times', parkEventsKey('epcot'), ParkEventsSchema, { version: 1, events: EVENTS });
  client = new Client({ name: 'recent-events-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
    fetch: (url, init) => handleMcpRequest(new Request(url, init), { client: 'test-client' }),
  });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await blobs?.stop();
});

const call = async (args: Record<string, unknown>) => {
  const result = await client.callTool({ name: 'recent_events', arguments: args });
  const text = (result.content as { text: string }[]).map((part) => part.text).join('\n');
  return { result, text, structured: result.structuredContent as { events: ParkEvent[]; note: string } };
};

describe('the recent_events tool', () => {
  it('is listed with the other tools, read-only, with schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
    const tool = tools.find((candidate) => candidate.name === 'recent_events');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['park', 'ride', 'types']);
  });

  it("tells a park's events of the last 48 hours, newest first, with the credit", async () => {
    const { result, text, structured } = await call({ park: 'Epcot' });
    expect(result.isError).toBeFalsy();
    expect(structured.events.map((known) => known.id)).toEqual(EVENTS.slice(0, 4).map((known) => known.id));
    expect(structured).toMatchObject({ park: 'epcot', parkName: 'EPCOT', credit: CREDIT });
    expect(text).toMatch(/^4 events at EPCOT in the last 48 hours \(park time\):\n\d\d:\d\d Soarin/);
    expect(text).toContain('Test Track reopened after 25 min: 45 min wait');
    expect(text.endsWith(CREDIT)).toBe(true);
  });

  it('narrows to one ride matched by name and to some types', async () => {
    const { structured } = await call({ park: 'epcot', ride: 'test trak', types: ['ride-down', 'ride-reopened'] });
    expect(structured.events.map((known) => known.type)).toEqual(['ride-reopened', 'ride-down']);
    expect(structured.note).toBe('2 events of Test Track at EPCOT in the last 48 hours');
    const none = await call({ park: 'epcot', ride: 'Space Mountain' });
    expect(none.structured.events).toEqual([]);
    expect(none.structured.note).toBe('No events in the last 48 hours for a ride named "Space Mountain" at EPCOT');
  });

  it('answers an unknown park as a tool error naming the nearest parks', async () => {
    const { result, text } = await call({ park: 'Atlantis' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/Unknown park "Atlantis"\. Nearest: /);
  });
});
