/**
 * Where the service may send a push. A subscription's endpoint is a URL a visitor hands us and the
 * recorder later POSTs to: anything but a browser vendor's push service would make the recorder a
 * request forger (to loopback, the private network, cloud metadata). Hosts as the browsers hand
 * them out: Firefox (Mozilla autopush), Chrome and most Chromium browsers (Google FCM), Safari
 * (Apple), Edge (Microsoft WNS, one host per region under notify.windows.com).
 */
export const PUSH_SERVICES: readonly { name: string; host: string; subdomains?: true }[] = [
  { name: 'Mozilla autopush', host: 'updates.push.services.mozilla.com' },
  { name: 'Google FCM', host: 'fcm.googleapis.com' },
  { name: 'Apple', host: 'web.push.apple.com' },
  { name: 'Microsoft WNS', host: 'notify.windows.com', subdomains: true },
];

const isKnownHost = (hostname: string) =>
  PUSH_SERVICES.some(({ host, subdomains }) =>
    subdomains
      ? hostname.endsWith(`.${host}`) && /^[a-z0-9-]+$/.test(hostname.slice(0, -host.length - 1))
      : hostname === host,
  );

/**
 * Why `endpoint` may not receive pushes, or null when it may: https on the default port of a known
 * push service, or an origin `allowedOrigins` names (PUSH_ALLOWED_ORIGINS: tests, a private service).
 */
export function pushEndpointProblem(endpoint: string, allowedOrigins: readonly string[]): string | null {
  if (!URL.canParse(endpoint)) return 'must be an absolute URL';
  const url = new URL(endpoint);
  if (url.username || url.password) return 'must not carry credentials';
  if (allowedOrigins.includes(url.origin)) return null;
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.port !== '') return 'must use the default https port';
  if (!isKnownHost(url.hostname))
    return `must be on a known push service (${PUSH_SERVICES.map((s) => s.name).join(', ')})`;
  return null;
}
