/**
 * Writes the OpenAPI document exactly as the build serves it at /docs/openapi.json, for tools
 * that need a file (`npm run lint:openapi` → Redocly). `--out <file>`, else stdout.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from '../src/discovery/openapi-document.ts';
import { getConfig } from '../src/platform/config.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const text = `${JSON.stringify(buildOpenApiDocument(getConfig().SITE_URL), null, 2)}\n`;
if (values.out) {
  await mkdir(path.dirname(values.out), { recursive: true });
  await writeFile(values.out, text);
} else {
  process.stdout.write(text);
}
