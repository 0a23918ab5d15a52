import type { Config, Context } from '@netlify/functions';
import { handleMcpRequest, MCP_PATH } from '../../src/mcp/mcp-server.ts';

/**
 * POST /mcp: the read-only tools for agents (docs/mcp.md). Its own function rather than the
 * Astro `ssr` one: it bundles only the MCP SDK and the feature code it calls, so it starts faster.
 */
export default (request: Request, context: Context): Promise<Response> =>
  handleMcpRequest(request, { client: context.ip, later: (task) => context.waitUntil(task) });

// GET and DELETE are declared so that this function answers their 405, not the site's 404 page.
export const config: Config = {
  path: [MCP_PATH, `${MCP_PATH}/`],
  method: ['POST', 'GET', 'DELETE', 'OPTIONS'],
};
