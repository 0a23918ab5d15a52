import { MINUTE_MS } from '../platform/time-units.ts';
import type { WaitHistory } from '../wait-times/day/history-schemas.ts';
import type { WaitTimes } from '../wait-times/wait-times-schemas.ts';

/** The API reuses its data for 5 minutes (docs/contract.md): asking sooner only returns the same answer. */
const FRESH_MS = 5 * MINUTE_MS;
/** Never ask more often than this, whatever the data says. */
const MIN_INTERVAL_MS = MINUTE_MS;
/** Retries after failures back off up to this. */
const MAX_BACKOFF_MS = 5 * MINUTE_MS;
const TIMEOUT_MS = 15_000;

export type Problem = 'offline' | 'failed' | 'unknown-park' | 'no-park';
/** How one request ended: new data, or a problem with the server's Retry-After (ms), the error. */
export type Outcome = { data: WaitTimes } | { problem: Problem; retryAfter?: number; error?: unknown };

/**
 * The element's side: one request cut off by `signal` (a rejection counts as failed, or offline),
 * told when a request starts (no outcome) and how it ended, and the page's state.
 */
type PollHost = {
  request(signal: AbortSignal): Promise<Outcome>;
  update(outcome?: Outcome): void;
  hidden(): boolean;
  offline(): boolean;
};

/** A few seconds of spread, so that many readers do not all ask at the same instant. */
const spread = () => Math.random() * 5_000;

/**
 * When to ask next: when the API's copy turns 5 minutes old, never within a minute of the last
 * request, backing off after failures, and not at all while the page is hidden or after stop().
 */
export class Poller {
  readonly #host: PollHost;
  #failures = 0;
  #lastFetchAt = 0;
  #dueAt: number | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #request: AbortController | null = null;
  #running = false;

  constructor(host: PollHost) {
    this.#host = host;
  }

  get loading(): boolean {
    return this.#request !== null;
  }

  /** Starts over (a new endpoint); saved data the API would still answer with waits until then. */
  reset(savedAt?: number): void {
    this.#failures = 0;
    this.#lastFetchAt = 0;
    const freshFor = savedAt === undefined ? 0 : savedAt + FRESH_MS - Date.now();
    this.#dueAt = freshFor > 0 ? Date.now() + freshFor + spread() : null;
  }

  /** Asks now unless a refresh is planned (an element moved in the document keeps its plan). */
  start(): void {
    this.#running = true;
    if (this.#dueAt === null) void this.load();
    else this.arm();
  }

  stop(): void {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#request?.abort();
    this.#request = null;
  }

  /** Sets the timer for what is due; none while the page is hidden (it catches up when shown). */
  arm(): void {
    clearTimeout(this.#timer);
    if (this.#dueAt === null || !this.#running || this.#host.hidden()) return;
    this.#timer = setTimeout(() => this.load(), Math.max(0, this.#dueAt - Date.now()));
  }

  async load(): Promise<void> {
    clearTimeout(this.#timer);
    this.#dueAt = null;
    if (this.#request) return;
    const since = Date.now() - this.#lastFetchAt;
    if (since < MIN_INTERVAL_MS) return this.schedule(MIN_INTERVAL_MS - since);
    if (this.#host.offline()) return this.#settle({ problem: 'offline', retryAfter: MIN_INTERVAL_MS });

    this.#lastFetchAt = Date.now();
    const request = new AbortController();
    this.#request = request;
    const timeout = setTimeout(() => request.abort(new DOMException('timed out', 'TimeoutError')), TIMEOUT_MS);
    this.#host.update();
    const outcome = await this.#host
      .request(request.signal)
      .catch((error: unknown): Outcome => ({ problem: this.#host.offline() ? 'offline' : 'failed', error }));
    clearTimeout(timeout);
    if (this.#request !== request) return; // stopped: the park changed or the element left
    this.#request = null;
    this.#settle(outcome);
  }

  /** Asks in `delay` ms, or as soon after as the minimum interval allows (0: back online). */
  schedule(delay: number): void {
    this.#dueAt = Date.now() + delay;
    this.arm();
  }

  #settle(outcome: Outcome): void {
    if ('data' in outcome) {
      this.#failures = 0;
      // When the API's copy turns 5 minutes old, within [1 min, 5 min].
      const fresh = outcome.data.updatedAt + FRESH_MS - Date.now();
      this.schedule(Math.min(Math.max(fresh, MIN_INTERVAL_MS), FRESH_MS) + spread());
    } else if (outcome.problem === 'failed' || outcome.problem === 'offline') {
      this.#failures += 1;
      const backoff = Math.min(MIN_INTERVAL_MS * 2 ** (this.#failures - 1), MAX_BACKOFF_MS);
      this.schedule(Math.max(backoff, outcome.retryAfter ?? 0));
    }
    this.#host.update(outcome);
  }
}

/** Seconds or an HTTP date, as Retry-After allows; 0 when absent or unreadable. */
export function retryAfterMs(value: string | null): number {
  if (!value) return 0;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : 0;
}

// Saved and received bodies are checked as far as the element reads them (no zod in the browser).
const isObject = (body: unknown): body is Record<string, unknown> => body !== null && typeof body === 'object';

const listOf = (value: unknown, test: (item: Record<string, unknown>) => boolean) =>
  Array.isArray(value) && value.every((item) => isObject(item) && test(item));

export const isWaitTimes = (body: unknown): body is WaitTimes =>
  isObject(body) &&
  Number.isFinite(body.updatedAt) &&
  listOf(body.rides, (r) => typeof r.name === 'string' && Number.isFinite(r.wait) && typeof r.open === 'boolean');

const isHours = (hours: unknown) =>
  hours === undefined ||
  hours === null ||
  (isObject(hours) && Number.isFinite(hours.opensAt) && Number.isFinite(hours.closesAt));

// A day saved before the outlook (no outlookTimes) is not used: the next answer replaces it. One
// saved before the hours (no `hours`) is: its hours count as unknown.
export const isDay = (body: unknown): body is WaitHistory =>
  isObject(body) &&
  typeof body.timeZone === 'string' &&
  isHours(body.hours) &&
  Array.isArray(body.times) &&
  Array.isArray(body.outlookTimes) &&
  Number.isFinite(body.dayEndsAt) &&
  listOf(body.rides, (ride) => Array.isArray(ride.waits) && Array.isArray(ride.usual) && Array.isArray(ride.outlook));
