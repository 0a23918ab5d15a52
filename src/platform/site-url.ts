/**
 * Where the public origin comes from. One function, used by astro.config.mjs at build time (for
 * prerendered documents and pages) and by src/platform/config.ts at run time, so both name the same site.
 */

export const DEFAULT_SITE_URL = 'http://localhost:4321';

/** The variable the origin was taken from, so a malformed value is reported under its own name. */
export type SiteUrlSource = 'SITE_URL' | 'build' | 'DEPLOY_PRIME_URL' | 'URL' | 'default';

type Environment = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * True on Netlify's build, its functions and its CLI. The build sets NETLIFY, the CLI NETLIFY_LOCAL,
 * and functions get only URL, SITE_NAME and SITE_ID at run time
 * (https://docs.netlify.com/build/functions/environment-variables/).
 */
export function onNetlify(env: Environment): boolean {
  return env.NETLIFY === 'true' || env.NETLIFY_LOCAL === 'true' || set(env.SITE_ID) || set(env.SITE_NAME);
}

/**
 * The public origin: `SITE_URL` when set; else the one the build resolved (code bundled by Astro
 * carries it, so a function on a deploy preview agrees with the prerendered pages of its build);
 * else Netlify's own address: `DEPLOY_PRIME_URL` on deploy previews and branch deploys (Netlify sets
 * CONTEXT at build time: https://docs.netlify.com/build/configure-builds/environment-variables/),
 * `URL` otherwise; else http://localhost:4321.
 */
export function resolveSiteUrl(env: Environment, built?: string): { value: string; from: SiteUrlSource } {
  if (set(env.SITE_URL)) return { value: env.SITE_URL.trim(), from: 'SITE_URL' };
  if (set(built)) return { value: built, from: 'build' };
  if (onNetlify(env)) {
    const preview = env.CONTEXT === 'deploy-preview' || env.CONTEXT === 'branch-deploy';
    if (preview && set(env.DEPLOY_PRIME_URL)) return { value: env.DEPLOY_PRIME_URL.trim(), from: 'DEPLOY_PRIME_URL' };
    if (set(env.URL)) return { value: env.URL.trim(), from: 'URL' };
  }
  return { value: DEFAULT_SITE_URL, from: 'default' };
}
