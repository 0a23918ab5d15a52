import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';

/**
 * Netlify packages a Functions v2 file by bundling our own code and tracing every npm package it
 * imports as separate files (zip-it-and-ship-it forces `nft` for v2; `node_bundler` does not apply).
 * Loaded that way, zod's classic API alone is about 100 modules and 90 ms of a cold start. So a
 * Netlify build bundles each function in netlify/functions itself, dependencies included and
 * tree-shaken (esbuild, the bundler Netlify uses for our own code), into BUNDLED_FUNCTIONS_DIR,
 * which netlify.toml names as the functions directory (docs/netlify.md). What a function imports
 * with `import()` (nodemailer, when a message is sent) becomes a chunk under `chunks/`, loaded then.
 * Each bundle carries the site's origin as the build resolved it, as Astro's own bundle does
 * (`import.meta.env.SITE`, read by src/platform/config.ts): at run time Netlify gives functions
 * `URL` but not a deploy preview's `DEPLOY_PRIME_URL`, and the functions must name the address the
 * pages of their deploy name.
 */
export const FUNCTION_SOURCES_DIR = 'netlify/functions';
export const BUNDLED_FUNCTIONS_DIR = '.netlify/bundled-functions';

/**
 * Bundles each entry point (relative to `root`) on its own with its dependencies into one ES module
 * in `outdir` (plus `chunks/` for what it imports on demand), as a function ships, for the site at
 * `site` when given; returns the entry files written.
 */
export async function bundleModules(
  root: string,
  entryPoints: string[],
  outdir: string,
  site?: string,
): Promise<string[]> {
  // One after another: two functions that import the same module on demand write the same chunk.
  for (const entryPoint of entryPoints) {
    await build({
      absWorkingDir: root,
      entryPoints: [entryPoint],
      outdir,
      outExtension: { '.js': '.mjs' },
      // Chunks in a folder of their own: every file at the top of the functions folder is a function.
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      // A CommonJS dependency inside an ES module bundle needs `require` for Node's built-ins.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
      },
      define: site === undefined ? {} : { 'import.meta.env': JSON.stringify({ SITE: site }) },
      legalComments: 'none',
      logLevel: 'warning',
    });
  }
  return entryPoints.map((entry) => path.join(outdir, path.basename(entry).replace(/\.m?[jt]s$/, '.mjs')));
}

/** Bundles every function of `root` for `site` into `root`/BUNDLED_FUNCTIONS_DIR; returns the files written. */
export async function bundleFunctions(root: string, site: string): Promise<string[]> {
  const sources = readdirSync(path.join(root, FUNCTION_SOURCES_DIR)).filter((file) => file.endsWith('.mts'));
  const outdir = path.join(root, BUNDLED_FUNCTIONS_DIR);
  await rm(outdir, { recursive: true, force: true });
  return bundleModules(
    root,
    sources.map((file) => path.join(FUNCTION_SOURCES_DIR, file)),
    outdir,
    site,
  );
}

/** Astro integration for the Netlify build: bundles the functions once the site is built. */
export function bundleNetlifyFunctions(): AstroIntegration {
  let root = process.cwd();
  let site = '';
  return {
    name: 'site-api:bundle-functions',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        site = config.site ?? '';
      },
      'astro:build:done': async ({ logger }) => {
        const written = await bundleFunctions(root, site);
        logger.info(`${written.length} functions bundled into ${BUNDLED_FUNCTIONS_DIR}`);
      },
    },
  };
}
