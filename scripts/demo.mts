import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mts';
import { startFakeQueueTimes } from './fake-queue-times.mts';

/**
 * `npm run demo`: the whole site against a local replay of recorded queue-times payloads whose
 * waits move over time, so it works offline and shows trends after about half an hour.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded(root);
const upstream = await startFakeQueueTimes({ moving: true });
process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
process.env.DATA_DIR ??= '.data/demo';
console.info(`Demo: replaying recorded queue-times payloads from ${upstream.url}`);
await import('../server/main.mts');
