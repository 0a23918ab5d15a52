import { buildOpenApiDocument } from '../src/discovery/openapi-document.ts';
import { getConfig } from '../src/platform/config.ts';

// The OpenAPI document exactly as the build serves it at /docs/openapi.json, on stdout, for
// tools that need a file (`npm run lint:openapi` → Redocly).
process.stdout.write(`${JSON.stringify(await buildOpenApiDocument(getConfig().SITE_URL), null, 2)}\n`);
