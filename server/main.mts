import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSiteMismatch } from '../scripts/build-record.mts';
import { loadConfig } from '../src/platform/config.ts';
import { startSite } from './runtime.mts';

/** `npm run serve`: serves an existing build on HOST:PORT until SIGINT or SIGTERM. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
function fail(message: unknown): never {
  console.error(message);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  fail((error as Error).message);
}
// Prerendered documents carry the SITE_URL of the build: serving them under another would name the wrong origin.
const mismatch = buildSiteMismatch(root, config.SITE_URL);
if (mismatch) fail(mismatch);

const { HOST: host, PORT: port, SITE_URL: siteUrl } = config;
const site = await startSite({ host, port, siteUrl, dataDir: path.resolve(root, config.DATA_DIR), root });
console.info(`site-api listening on ${site.url}`);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    console.info(`${signal}: stopping`);
    site.close().then(() => process.exit(0), fail);
  });
}
