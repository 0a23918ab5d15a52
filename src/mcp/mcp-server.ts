import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type HttpError, unavailableAs503 } from '../platform/errors.ts';
import { type AfterAnswer, NO_STORE, respond, withBaseHeaders } from '../platform/http.ts';
import { hitRateLimit, type RateLimit } from '../platform/rate-limit.ts';
import { MINUTE_MS } from '../platform/time-units.ts';
import { toolDefinitions } from './tools.ts';

/** A tool call is a few hundred bytes; anything near this is not one. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;
/** Generous for an agent's conversation (each tool call is one request), tight for a scraper. */
export const MCP_RATE_LIMIT: RateLimit = { name: 'mcp', limit: 60, windowMs: MINUTE_MS };

// Any origin: the tools are read-only and public, and agents may run in a browser.
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Mcp-Protocol-Version, Retry-After',
};
const PREFLIGHT = {
  ...CORS,
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
};

/** A JSON-RPC error outside any request (id null), as the SDK's transport writes its own. */
function rpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  const json = { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
  return respond({ status, json, headers: { ...CORS, ...headers } });
}

/**
 * One request to /mcp: MCP over Streamable HTTP without sessions, answered with plain JSON
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http).
 * GET (a server-sent event stream) and DELETE (ending a session) mean nothing without sessions: 405.
 */
export async function handleMcpRequest(request: Request, { client, later }: { client: string; later?: AfterAnswer }) {
  if (request.method === 'OPTIONS') return respond({ status: 204, empty: true, headers: PREFLIGHT });
  if (request.method !== 'POST') return rpcError(405, 'Method not allowed: use POST', { Allow: 'POST, OPTIONS' });
  try {
    await unavailableAs503('service unavailable', () => hitRateLimit(MCP_RATE_LIMIT, client));
  } catch (error) {
    const { status, message, headers } = error as HttpError;
    return rpcError(status, message, headers);
  }
  // No `sessionIdGenerator`: the transport is then stateless and never sends an Mcp-Session-Id.
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  // A fresh server per request: stateless, so no request ever sees another's state or ids.
  const server = new McpServer({ name: 'site-api', version: '1.0.0' });
  for (const [name, { description, inputSchema, outputSchema, run }] of Object.entries(toolDefinitions(later))) {
    const annotations = { readOnlyHint: true, openWorldHint: false };
    server.registerTool(name, { description, inputSchema, outputSchema, annotations }, run as never);
  }
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  later?.(server.close());
  return withBaseHeaders(response, { ...CORS, 'Cache-Control': NO_STORE });
}
