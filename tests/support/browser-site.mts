import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';

/**
 * The site as browser tests see it: the built server (as `npm run serve` runs it) against the
 * local replay of recorded queue-times payloads, with a fresh data folder.
 */
const upstream = await startFakeQueueTimes();
process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
process.env.DATA_DIR = await mkdtemp(path.join(tmpdir(), 'site-api-browser-'));
process.env.HOST = '127.0.0.1';
await import('../../server/main.mts');
