import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { MCP_TOOL_NAMES } from '../../support/mcp-tools.ts';
import { ROOT, type ServedSite, startServedSite } from '../../support/served-site.ts';

/** The MCP Inspector (`npx @modelcontextprotocol/inspector --cli …`), the client people try a server with. */
const INSPECTOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

let upstream: FakeQueueTimes;
let site: ServedSite;
// The Inspector keeps a catalog and storage under HOME: a throwaway one.
let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'mcp-inspector-home-'));
  upstream = await startFakeQueueTimes();
  site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url } });
});
afterAll(async () => {
  await site?.stop();
  await upstream?.close();
  await rm(home, { recursive: true, force: true });
});

async function inspect(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, '--cli', `${site.url}/mcp`, ...args], {
    cwd: ROOT,
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: home },
  });
  return JSON.parse(stdout);
}

describe('the MCP Inspector CLI against POST /mcp', () => {
  it('lists the tools', async () => {
    const { tools } = (await inspect('--method', 'tools/list')) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
  });

  it('calls a tool with a loosely spelled park and gets waits with the credit', async () => {
    const result = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'get_wait_times',
      '--tool-arg',
      'park=epcott',
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ park: 'epcot', parkName: 'EPCOT' });
    expect(JSON.stringify(result.content)).toContain('Powered by Queue-Times.com');
  });
});
