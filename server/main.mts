import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSiteMismatch } from '../scripts/build-record.mts';
import { loadConfig } from '../src/platform/config.ts';
import { startSite } from './runtime.mts';

/** `npm run serve`: serves an existing build on HOST:PORT until SIGINT or SIGTERM. */
const root = fileURLToPath(new URL('..', import.meta.url));

async function serve() {
  const config = loadConfig(process.env);
  // Prerendered documents carry the SITE_URL of the build: serving them under another would name the wrong origin.
  const mismatch = buildSiteMismatch(root, config.SITE_URL);
  if (mismatch) throw new Error(mismatch);
  const { HOST: host, PORT: port, SITE_URL: siteUrl } = config;
  const schedules = config.LOCAL_SCHEDULES === 'on';
  return startSite({ host, port, siteUrl, dataDir: path.resolve(root, config.DATA_DIR), root, schedules });
}

function fail(error: Error): never {
  console.error(error.message);
  process.exit(1);
}

const site = await serve().catch(fail);
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
