/**
 * The read side of the route-cache mirror (see mirrored-memory-cache.ts): what the local runtime
 * needs to answer a fresh cached GET without entering Astro. Shared through a global symbol: the
 * provider is bundled into Astro's server build (dist/server/chunks), the runtime imports this file
 * from source, so each has its own copy of this module and only a global is common to both.
 */

export interface MirroredEntry {
  status: number;
  /** The headers Astro's memory provider answers a hit with (its `X-Astro-Cache: HIT` included); never changed. */
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
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

/**
 * The mirror's key: host, path, and the whole query in a stable order. It tells apart at least
 * what Astro's own key does (origin, path, query without tracking parameters), so a mirror hit is
 * always an Astro hit on the same entry; a request Astro would key alike but the mirror does not
 * simply goes through Astro.
 */
export function mirrorKey(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  params.sort();
  const query = params.toString();
  return `${url.host}${url.pathname}${query ? `?${query}` : ''}`;
}

/** Fresh by the rule Astro's memory provider applies: age at most max-age. */
export function isFresh(entry: MirroredEntry, now = Date.now()): boolean {
  return now - entry.storedAt <= entry.maxAgeMs;
}

/**
 * What Astro's memory provider answers from its copy on a hit (core/cache/memory-provider.js), or
 * its 304, in the shape the runtime's one writer takes (a `Response` has it too).
 */
export function answerOf(entry: MirroredEntry, notModified: boolean) {
  return { status: notModified ? 304 : entry.status, headers: entry.headers, body: notModified ? null : entry.body };
}
