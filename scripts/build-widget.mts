import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';

/** The served file's header: what an embedder reads first. */
const HEADER = `/**
 * <park-waits park="epcot"></park-waits>: live ride waits for one park, and each ride's day so far
 * against its usual day. One classic script, no dependencies, built from src/widget/ (TypeScript):
 *   <script src="https://SITE/widgets/park-waits.js" defer></script>
 * Attributes, styling (--park-waits-* properties, ::part()s) and refreshing: docs/wait-times.md,
 * "Embedding the wait-times widget".
 */`;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTFILE = 'public/widgets/park-waits.js';
/** What the script may weigh gzipped (docs/wait-times.md): tests/request/wait-times/park-pages.test.ts holds it. */
export const WIDGET_GZIP_BUDGET = 15 * 1024;

/**
 * Astro integration: bundles the <park-waits> element into public/widgets/park-waits.js (git ignores it) before the
 * build copies public/ out, and prints its size as served and gzipped.
 */
export function widgetBuild(): AstroIntegration {
  return { name: 'site-api:widget', hooks: { 'astro:build:start': buildWidget } };
}

async function buildWidget(): Promise<void> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/widget/element.ts'],
    outfile: OUTFILE,
    bundle: true,
    format: 'iife',
    // Class fields and private members as written, not rewritten into helpers.
    target: 'es2022',
    charset: 'utf8',
    // The shadow root's stylesheet, bundled as a string.
    loader: { '.css': 'text' },
    banner: { js: HEADER },
    logLevel: 'error',
  });
  const script = await readFile(path.join(ROOT, OUTFILE));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.info(
    `Widget: ${OUTFILE}, ${kb(script.byteLength)}, ${kb(gzipSync(script).byteLength)} gzipped (budget ${kb(WIDGET_GZIP_BUDGET)})`,
  );
}
