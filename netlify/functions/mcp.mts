import type { Config, Context } from '@netlify/functions';
import { handleMcpRequest } from '../../src/mcp/mcp-server.ts';

/**
 * POST /mcp: the read-only tools for agents (docs/mcp.md). Its own function rather than the
 * Astro `ssr` one: it bundles only the MCP SDK and the feature code it calls, so it starts faster.
 */
export default (request: Request, context: Context): Promise<Response> =>
  handleMcpRequest(request, { client: context.ip, later: (task) => context.waitUntil(task) });

// GET and DELETE are declared so that this function answers their 405, not the site's 404 page.
// Literal paths: Netlify reads `config` statically (https://docs.netlify.com/build/functions/get-started/#path).
export const config: Config = {
  path: ['/mcp', '/mcp/'],
  method: ['POST', 'GET', 'DELETE', 'OPTIONS'],
};
