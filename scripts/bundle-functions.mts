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
 * tree-shaken (esbuild, the bundler Netlify uses for our own code), into one file per function in
 * BUNDLED_FUNCTIONS_DIR, which netlify.toml names as the functions directory (docs/netlify.md).
 * nodemailer stays a package: it is imported only when a message is sent.
 */
export const FUNCTION_SOURCES_DIR = 'netlify/functions';
export const BUNDLED_FUNCTIONS_DIR = '.netlify/bundled-functions';
/** Packages left as files beside the bundle, loaded on demand. */
const LOADED_ON_DEMAND = ['nodemailer'];

/**
 * Bundles each entry point (relative to `root`) with its dependencies into one ES module in
 * `outdir`, as a function ships; returns the files written.
 */
export async function bundleModules(root: string, entryPoints: string[], outdir: string): Promise<string[]> {
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    external: LOADED_ON_DEMAND,
    // A CommonJS dependency inside an ES module bundle needs `require` for Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
  });
  return entryPoints.map((entry) => path.join(outdir, path.basename(entry).replace(/\.m?[jt]s$/, '.mjs')));
}

/** Bundles every function of `root` into `root`/BUNDLED_FUNCTIONS_DIR; returns the files written. */
export async function bundleFunctions(root: string): Promise<string[]> {
  const sources = readdirSync(path.join(root, FUNCTION_SOURCES_DIR)).filter((file) => file.endsWith('.mts'));
  const outdir = path.join(root, BUNDLED_FUNCTIONS_DIR);
  await rm(outdir, { recursive: true, force: true });
  return bundleModules(
    root,
    sources.map((file) => path.join(FUNCTION_SOURCES_DIR, file)),
    outdir,
  );
}

/** Astro integration for the Netlify build: bundles the functions once the site is built. */
export function bundleNetlifyFunctions(): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'site-api:bundle-functions',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:done': async ({ logger }) => {
        const written = await bundleFunctions(root);
        logger.info(`${written.length} functions bundled into ${BUNDLED_FUNCTIONS_DIR}`);
      },
    },
  };
}
