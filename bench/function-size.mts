import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { copyProject, run } from '../scripts/netlify-cli.mts';

// Each function of a Netlify build: its zipped size and the time a fresh Node process takes to import
// it, against a function that imports nothing. The issue's limits: 1 MiB, 100 ms.
export const LOAD_ROUNDS = 7;

/** A zip of `files`: deflate level 9 (as Netlify's packager) plus the zip format's headers. */
const zipBytes = (dir: string, files: string[]) =>
  files.reduce(
    (sum, file) => sum + deflateRawSync(readFileSync(path.join(dir, file)), { level: 9 }).length + 76 + 2 * file.length,
    22,
  );

/** A bundled function and the chunks it imports, directly or through another chunk. */
function filesOf(dir: string, entry: string): string[] {
  const files = new Set([entry]);
  for (const file of files) {
    for (const [, chunk] of readFileSync(path.join(dir, file), 'utf8').matchAll(
      /["']\.\/((?:chunks\/)?[\w.-]+\.mjs)["']/g,
    )) {
      const imported = path.join(path.dirname(file), chunk as string);
      if (existsSync(path.join(dir, imported))) files.add(imported);
    }
  }
  return [...files];
}

/**
 * Milliseconds of `import()` in a fresh process, after a Request and a Response: Node loads its fetch
 * classes on first use, a cost that is Node's, not the function's.
 */
function loadMs(file: string): number {
  const probe = `await new Response(new Request('http://x/', { method: 'POST', body: '{}' }).body).text();
    const t = performance.now(); await import(process.argv[1]); console.log(performance.now() - t);`;
  const env = { PATH: process.env.PATH ?? '', SITE_ID: 'bench', URL: 'https://site.example' };
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', probe, pathToFileURL(file).href], { env }),
  );
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A row for each function of a Netlify build made in a copy of the project, the baseline first. */
export async function netlifyFunctions(): Promise<unknown[][]> {
  const copy = await copyProject();
  try {
    run(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], copy, { ...process.env, NETLIFY: 'true' });
    const netlify = path.join(copy, '.netlify');
    const bundled = path.join(netlify, 'bundled-functions');
    const ssr = path.join(netlify, 'v1/functions/ssr');
    writeFileSync(path.join(netlify, 'baseline.mjs'), 'export default async () => new Response("ok");\n');
    const ssrFiles = readdirSync(ssr, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
    const functions: [string, string, string[]][] = [
      ['baseline (imports nothing)', netlify, ['baseline.mjs']],
      ['ssr (Astro)', ssr, ['ssr.mjs', ...ssrFiles.filter((f) => f !== 'ssr.mjs')]],
      ...readdirSync(bundled)
        .filter((file) => file.endsWith('.mjs'))
        .map((file): [string, string, string[]] => [file.replace('.mjs', ''), bundled, filesOf(bundled, file)]),
    ];
    // Round after round over every function, so that a busy moment of the machine is shared out.
    const times = functions.map(() => [] as number[]);
    for (let round = 0; round < LOAD_ROUNDS; round++)
      for (const [i, [, dir, files]] of functions.entries()) times[i]?.push(loadMs(path.join(dir, files[0] as string)));
    const baselineMs = median(times[0] ?? []);
    return functions.map(([name, dir, files], i) => {
      const bytes = zipBytes(dir, files);
      const ms = median(times[i] ?? []);
      const within = bytes < 2 ** 20 && ms < 100 ? 'yes' : '**no**';
      return [name, files.length, bytes.toLocaleString('en-US'), ms.toFixed(1), (ms - baselineMs).toFixed(1), within];
    });
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
