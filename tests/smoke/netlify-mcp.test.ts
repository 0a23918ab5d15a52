import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_HEADERS } from '../../src/platform/http.ts';
import { baseHeadersOf } from '../support/http-headers.ts';
import { MCP_TOOL_NAMES } from '../support/mcp-tools.ts';

/**
 * The MCP endpoint over a site served by Netlify's own tooling or a real deploy (see
 * netlify-site.test.ts for SMOKE_URL). Its POSTs are read-only tool calls, so it runs in both.
 */
const BASE = new URL(process.env.SMOKE_URL ?? 'http://smoke-url-is-not-set.invalid').origin;

let client: Client;

beforeAll(async () => {
  client = new Client({ name: 'site-api-smoke', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', BASE)));
});
afterAll(() => client?.close());

describe('POST /mcp, its own Netlify function', () => {
  it('lists the six tools and answers get_wait_times with the credit', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
    const result = await client.callTool({ name: 'get_wait_times', arguments: { park: 'Epcot' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ park: 'epcot', source: 'queue-times.com' });
    expect(JSON.stringify(result.content)).toContain('Powered by Queue-Times.com');
  });

  it('answers GET with 405 and Allow, not the site', async () => {
    const response = await fetch(`${BASE}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it("carries the site's base headers on a tool list, a 405 and a preflight", async () => {
    const answers = [
      await fetch(`${BASE}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
      await fetch(`${BASE}/mcp`, { headers: { Accept: 'text/event-stream' } }),
      await fetch(`${BASE}/mcp`, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 405, 204]);
    for (const answer of answers) expect(baseHeadersOf(answer)).toEqual(BASE_HEADERS);
  });
});
