// The public origin, asked by astro.config.mjs at build time and config.ts at run time alike.
type Environment = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** On Netlify's build, CLI or functions (these get only URL, SITE_NAME and SITE_ID: https://docs.netlify.com/build/functions/environment-variables/). */
export function onNetlify(env: Environment): boolean {
  return env.NETLIFY === 'true' || env.NETLIFY_LOCAL === 'true' || set(env.SITE_ID) || set(env.SITE_NAME);
}

/**
 * The public origin and the variable it came from (to name it in errors): `SITE_URL`, else the build's
 * (so a deploy preview's functions agree with its pages), else on Netlify `DEPLOY_PRIME_URL` for previews
 * (https://docs.netlify.com/build/configure-builds/environment-variables/) or `URL`, else localhost:4321.
 */
export function resolveSiteUrl(
  env: Environment,
  built?: string,
): { value: string; from: 'SITE_URL' | 'build' | 'DEPLOY_PRIME_URL' | 'URL' | 'default' } {
  if (set(env.SITE_URL)) return { value: env.SITE_URL.trim(), from: 'SITE_URL' };
  if (set(built)) return { value: built, from: 'build' };
  if (onNetlify(env)) {
    const preview = env.CONTEXT === 'deploy-preview' || env.CONTEXT === 'branch-deploy';
    if (preview && set(env.DEPLOY_PRIME_URL)) return { value: env.DEPLOY_PRIME_URL.trim(), from: 'DEPLOY_PRIME_URL' };
    if (set(env.URL)) return { value: env.URL.trim(), from: 'URL' };
  }
  return { value: 'http://localhost:4321', from: 'default' };
}
