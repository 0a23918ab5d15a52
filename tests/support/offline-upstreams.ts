import { OFFLINE_DEFAULTS } from './served-site.ts';

// In-process tests call feature code directly: upstreams they do not name answer from a closed
// loopback port (as in served sites), so that nothing reaches the internet.
for (const [name, value] of Object.entries(OFFLINE_DEFAULTS)) process.env[name] ??= value;
