import { freePorts } from '../../scripts/fake-http-server.mts';

/**
 * What the browser-test harness (tests/support/browser-site.mts) and the tests agree on.
 * Playwright's `webServer` and the tests must know the ports before anything starts, so the
 * Playwright runner finds three free ones when it loads this file (its environment reaches the
 * harness and every worker, which then read them); BROWSER_TEST_PORT (and BROWSER_UPSTREAM_PORT,
 * BROWSER_EMBEDDER_PORT) name them instead.
 */
if (!process.env.BROWSER_TEST_PORT || !process.env.BROWSER_UPSTREAM_PORT || !process.env.BROWSER_EMBEDDER_PORT) {
  const [site, upstream, embedder] = await freePorts(3);
  process.env.BROWSER_TEST_PORT ??= String(site);
  process.env.BROWSER_UPSTREAM_PORT ??= String(upstream);
  process.env.BROWSER_EMBEDDER_PORT ??= String(embedder);
}
export const SITE_PORT = Number(process.env.BROWSER_TEST_PORT);
export const UPSTREAM_PORT = Number(process.env.BROWSER_UPSTREAM_PORT);
/** Where the harness serves a page of "another site" that embeds the widget (a different origin). */
export const EMBEDDER_PORT = Number(process.env.BROWSER_EMBEDDER_PORT);

/** The push service origin the browser tests' stubbed subscriptions name; the harness allows it (PUSH_ALLOWED_ORIGINS). */
export const STUB_PUSH_ORIGIN = 'http://127.0.0.1:9';

/** The harness gives this park a history sample from 30 minutes ago: its rides rise and fall. */
export const PARK_WITH_HISTORY = 'alpha-adventure-world';

/**
 * The harness gives this park a learned usual day and today so far, a quarter busier: the charts
 * have something to draw. Paris from 06:00 to 21:59 there; else (little of the day behind, or no
 * outlook left to draw) Anaheim, nine hours behind. Chosen once by the Playwright runner (its
 * environment reaches the harness and every worker), so all agree even across that moment. The
 * request tier's seeded MCP test uses it too.
 */
const parisHour = Number(
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: 'numeric', hourCycle: 'h23' }).format(),
);
process.env.PARK_WITH_DAY ??= parisHour >= 6 && parisHour < 22 ? 'alphaland-paris' : 'alphaland';
export const PARK_WITH_DAY = process.env.PARK_WITH_DAY;
/** How much busier than usual the seeded day is. */
export const SEEDED_CROWD = 1.25;
