import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';

/**
 * A Netlify build bundles each function, tree-shaken, into the directory netlify.toml names: Netlify
 * would ship every npm package as separate files, slow to load on a cold start. Each bundle carries
 * the origin the build resolved (`import.meta.env.SITE`): functions never see a deploy preview's
 * address (docs/netlify.md).
 */
export const FUNCTION_SOURCES_DIR = 'netlify/functions';
export const BUNDLED_FUNCTIONS_DIR = '.netlify/bundled-functions';

/** Bundles each entry point (relative to `root`) into one ES module in `outdir`, `import()`s as chunks. */
export async function bundleModules(root: string, entryPoints: string[], outdir: string, site: string) {
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
      define: { 'import.meta.env': JSON.stringify({ SITE: site }) },
      legalComments: 'none',
      logLevel: 'warning',
    });
  }
}

/** Astro integration for the Netlify build: bundles the functions once the site is built. */
export function bundleNetlifyFunctions(): AstroIntegration {
  let root = '';
  let site = '';
  return {
    name: 'site-api:bundle-functions',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        site = config.site ?? '';
      },
      'astro:build:done': async ({ logger }) => {
        const sources = readdirSync(path.join(root, FUNCTION_SOURCES_DIR)).filter((file) => file.endsWith('.mts'));
        const outdir = path.join(root, BUNDLED_FUNCTIONS_DIR);
        await rm(outdir, { recursive: true, force: true });
        const entryPoints = sources.map((file) => path.join(FUNCTION_SOURCES_DIR, file));
        await bundleModules(root, entryPoints, outdir, site);
        logger.info(`${sources.length} functions bundled into ${BUNDLED_FUNCTIONS_DIR}`);
      },
    },
  };
}
