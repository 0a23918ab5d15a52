/**
 * The read side of the route-cache mirror (see mirrored-memory-cache.ts): what the local runtime
 * needs to answer a fresh cached GET without entering Astro. Shared through a global symbol because
 * the provider runs inside Astro's server bundle and the runtime outside it.
 */

export interface MirroredEntry {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  storedAt: number;
  maxAgeMs: number;
  tags: string[];
  pathname: string;
}

export interface RouteCacheMirror {
  get(key: string): MirroredEntry | undefined;
}

const MIRROR = Symbol.for('site-api.route-cache-mirror');
type WithMirror = typeof globalThis & { [MIRROR]?: RouteCacheMirror };

/** The mirror of this process, once Astro has loaded the provider (on its first on-demand request). */
export function routeCacheMirror(): RouteCacheMirror | undefined {
  return (globalThis as WithMirror)[MIRROR];
}

export function publishRouteCacheMirror(mirror: RouteCacheMirror): void {
  (globalThis as WithMirror)[MIRROR] = mirror;
}

/** The mirror's key: path plus query with parameters in a stable order. */
export function mirrorKey(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  params.sort();
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** Fresh by the rule Astro's memory provider applies: age at most max-age. */
export function isFresh(entry: MirroredEntry, now = Date.now()): boolean {
  return now - entry.storedAt <= entry.maxAgeMs;
}
