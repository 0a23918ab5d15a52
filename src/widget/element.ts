import { HOUR_MS, MINUTE_MS } from '../platform/time-units.ts';
import type { Accuracy } from '../wait-times/accuracy/accuracy-schemas.ts';
import type { WaitHistory } from '../wait-times/day/history-schemas.ts';
import type { Ride, WaitTimes } from '../wait-times/wait-times-schemas.ts';
import { isAccuracy, rowsOf } from './accuracy-line.ts';
import { dayView } from './chart-math.ts';
import { hoursLine } from './park-hours-line.ts';
import { isDay, isWaitTimes, type Outcome, Poller, type Problem, retryAfterMs } from './polling.ts';
import CSS from './styles.css';
import { accuracyView, ago, frame, hoursView, row, summary } from './view.ts';

const TAG = 'park-waits';
/** Saved data older than this is not shown; the API itself never serves data older than 24 h. */
const KEEP_MS = 24 * HOUR_MS;
/** Data older than this is shown as old (the API serves old data while its upstream is down). */
const OLD_MS = 15 * MINUTE_MS;
const READER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

// The script's own origin is the default API origin, so the element works when embedded elsewhere
// (the API answers with Access-Control-Allow-Origin: *). currentScript is only set while a classic
// script first runs; the lookup covers a module script.
const srcOf = (node: Element | null) => (node instanceof HTMLScriptElement ? node.src : '');
const DEFAULT_BASE = new URL(
  '/',
  srcOf(document.currentScript) || srcOf(document.querySelector('script[src*="park-waits.js"]')) || location.href,
).href;

const byName = (a: Ride, b: Ride) => a.name.localeCompare(b.name);
/** Longest (1) or shortest (-1) wait first; closed rides last either way. */
const byWait = (order: number) => (a: Ride, b: Ride) =>
  Number(b.open) - Number(a.open) || order * (b.wait - a.wait) || byName(a, b);
const SORTS = { name: byName, 'wait-desc': byWait(1), 'wait-asc': byWait(-1) };

/** One stylesheet for every element; constructed, so the page's CSP needs no 'unsafe-inline'. */
const sheet = new CSSStyleSheet();
sheet.replaceSync(CSS);

class ParkWaits extends HTMLElement {
  static observedAttributes = ['park', 'api-base', 'open-only', 'sort', 'label'];

  #data: WaitTimes | null = null;
  /** The live waits shown, or null: the park page's own parts read them here and ask nothing again (notify-me.ts). */
  get waits(): WaitTimes | null {
    return this.#data;
  }
  /** The park's day so far (GET /api/wait-times/history), or null. */
  #day: WaitHistory | null = null;
  /** The park's scorecard (GET /api/accuracy), or null; asked at the start, then at most hourly. */
  #accuracy: Accuracy | null = null;
  #accuracyAskedAt = Number.NEGATIVE_INFINITY;
  #problem: Problem | null = null;
  /** The endpoint the data belongs to, and its storage key: kept by a move, not by a new park. */
  #endpointShown = '';
  #ticker: ReturnType<typeof setInterval> | undefined;
  #poller = new Poller({
    request: (signal) => this.#request(signal),
    update: (outcome) => this.#update(outcome),
    hidden: () => document.hidden,
    offline: () => navigator.onLine === false,
  });
  #parts = frame();

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet];
    const { openOnly, sort } = this.#parts;
    openOnly.addEventListener('change', () => this.toggleAttribute('open-only', openOnly.checked));
    sort.addEventListener('change', () => this.setAttribute('sort', sort.value));
    root.append(this.#parts.root);
  }

  connectedCallback(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
    window.addEventListener('online', this.#onOnline);
    this.#start();
  }

  disconnectedCallback(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    window.removeEventListener('online', this.#onOnline);
    this.#poller.stop();
    clearInterval(this.#ticker);
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value || !this.isConnected) return;
    if (name === 'park' || name === 'api-base') {
      this.#poller.stop();
      this.#start();
    } else {
      this.#render();
    }
  }

  /** Nothing runs while nobody looks; what fell due meanwhile runs when the page shows again. */
  #onVisibility = () => {
    this.#poller.arm();
    this.#tick();
  };

  #onOnline = () => this.#poller.schedule(0);

  get #park(): string {
    return (this.getAttribute('park') ?? '').trim();
  }

  #url(path: string): string {
    let base: URL;
    try {
      base = new URL(this.getAttribute('api-base') || DEFAULT_BASE, location.href);
    } catch {
      base = new URL(DEFAULT_BASE);
    }
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    const url = new URL(path, base);
    url.searchParams.set('park', this.#park);
    return url.href;
  }

  #start(): void {
    const endpoint = this.#url('api/wait-times');
    if (this.#endpointShown !== endpoint) {
      this.#endpointShown = endpoint;
      this.#problem = this.#park ? null : 'no-park';
      const [data, day] = [this.#stored(''), this.#stored(':day')];
      this.#data = this.#park && isWaitTimes(data) && Date.now() - data.updatedAt < KEEP_MS ? data : null;
      this.#day = this.#data && isDay(day) && day.dayEndsAt > Date.now() ? day : null;
      this.#poller.reset(this.#data?.updatedAt);
      this.#accuracy = null;
      this.#accuracyAskedAt = Number.NEGATIVE_INFINITY;
      this.#askAccuracy();
    }
    this.#render();
    this.#tick();
    if (this.#park) this.#poller.start();
  }

  /** Keeps "updated … ago" and "closes in …" true while the page is visible. */
  #tick(): void {
    clearInterval(this.#ticker);
    this.#renderClock();
    if (!document.hidden) this.#ticker = setInterval(() => this.#renderClock(), 30_000);
  }

  /**
   * The scorecard changes when the grading job runs (hourly): asked once at the start, then with a
   * refresh an hour or more after the last ask. Its failure costs the line only.
   */
  #askAccuracy(): void {
    if (!this.#park || Date.now() - this.#accuracyAskedAt < HOUR_MS) return;
    this.#accuracyAskedAt = Date.now();
    const shown = this.#endpointShown;
    fetch(this.#url('api/accuracy'))
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((body: unknown) => {
        if (!isAccuracy(body) || this.#endpointShown !== shown) return;
        this.#accuracy = body;
        this.#render();
      })
      .catch(() => {});
  }

  async #request(signal: AbortSignal): Promise<Outcome> {
    this.#askAccuracy();
    // The browser's HTTP cache revalidates with If-None-Match (the API sends an ETag and
    // max-age=0), so an unchanged answer costs a 304. The day is an extra, drawn when it arrives:
    // it never holds up the table or the next refresh, and its failure leaves the table as it is.
    const shown = this.#endpointShown;
    fetch(this.#url('api/wait-times/history'), { signal })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((day: unknown) => {
        if (!isDay(day) || this.#endpointShown !== shown) return;
        this.#day = day;
        this.#stored(':day', day);
        this.#render();
      })
      .catch(() => {});
    const response = await fetch(this.#endpointShown, { signal });
    if (response.ok) {
      const body: unknown = await response.json();
      if (!isWaitTimes(body)) throw new TypeError('unexpected response');
      return { data: body };
    }
    if (response.status === 400 || response.status === 404) return { problem: 'unknown-park' };
    return { problem: 'failed', retryAfter: retryAfterMs(response.headers.get('Retry-After')) };
  }

  #update(outcome?: Outcome): void {
    if (outcome && 'data' in outcome) {
      this.#data = outcome.data;
      this.#problem = null;
      this.#stored('', outcome.data);
      this.#tick();
    } else if (outcome) {
      this.#problem = outcome.problem;
      const { error } = outcome;
      if (error instanceof Error && error.name !== 'AbortError' && error.name !== 'TimeoutError') {
        console.warn(`<${TAG} park="${this.#park}">: ${error.message}`);
      }
    }
    this.#render();
  }

  /** The saved copy under `suffix`, or with `body`: saves it. */
  #stored(suffix: string, body?: unknown): unknown {
    const key = `${TAG}:${this.#endpointShown}${suffix}`;
    try {
      if (body === undefined) return JSON.parse(localStorage.getItem(key) ?? 'null');
      localStorage.setItem(key, JSON.stringify(body));
    } catch {
      // storage may be disabled or full; the element works without it
    }
    return null;
  }

  #message(): string {
    const rides = this.#data?.rides;
    const problem = this.#problem;
    if (problem === 'no-park') return 'No park chosen: set the park attribute.';
    if (problem === 'unknown-park') return `Unknown park “${this.#park}”.`;
    if (!rides) {
      if (problem === 'offline') return 'You are offline. Wait times will load when you are back online.';
      if (problem === 'failed') return 'Wait times are unavailable right now. Trying again shortly.';
      return 'Loading wait times…';
    }
    if (problem === 'offline') return 'You are offline. Showing the last wait times.';
    if (problem === 'failed') return 'Couldn’t refresh. Showing the last wait times.';
    if (rides.length === 0) return 'No live waits: the park is closed.';
    if (this.hasAttribute('open-only') && !rides.some((ride) => ride.open)) return 'No rides are open right now.';
    return '';
  }

  #state(): string {
    if (this.#problem) return this.#data ? 'stale' : 'error';
    if (!this.#data) return 'loading';
    return this.#data.rides.length === 0 ? 'closed' : 'ready';
  }

  #render(): void {
    const parts = this.#parts;
    const rides = this.#data?.rides ?? [];
    const openOnly = this.hasAttribute('open-only');
    const sort = this.getAttribute('sort') ?? '';
    const sortBy = Object.hasOwn(SORTS, sort) ? (sort as keyof typeof SORTS) : 'name';
    const shown = rides.filter((ride) => ride.open || !openOnly).sort(SORTS[sortBy]);

    parts.openOnly.checked = openOnly;
    parts.sort.value = sortBy;
    parts.toolbar.hidden = rides.length === 0;
    parts.caption.textContent = this.getAttribute('label') || 'Live wait times';
    parts.table.hidden = shown.length === 0;
    const day = dayView(this.#day, this.#data);
    parts.rows.replaceChildren(...shown.map((ride) => row(ride, day)));
    parts.summary.hidden = !day || rides.length === 0;
    parts.summary.replaceChildren(...(day ? summary(day) : []));

    const accuracy = accuracyView(rowsOf(this.#accuracy, this.#park));
    parts.accuracy.hidden = accuracy.length === 0;
    parts.accuracy.replaceChildren(...accuracy);

    const message = this.#message();
    if (parts.status.textContent !== message) parts.status.textContent = message;
    parts.status.classList.toggle('problem', this.#problem !== null);
    this.setAttribute('state', this.#state());
    this.setAttribute('aria-busy', String(this.#poller.loading && !this.#data));
    this.#renderClock();
  }

  /** What changes with the clock: the park's hours line (and its credit) and the data's age. */
  #renderClock() {
    const { age, time, hours, hoursCredit } = this.#parts;
    const day = this.#day;
    const line = day && hoursLine(day.hours ?? null, Date.now(), day.timeZone, { timeZone: READER_ZONE });
    if (hours.lastChild?.textContent !== (line?.spoken ?? null)) hours.replaceChildren(...hoursView(line ?? null));
    hours.hidden = hoursCredit.hidden = !line;
    if (!this.#data) return age.replaceChildren();
    const updated = new Date(this.#data.updatedAt);
    time.dateTime = updated.toISOString();
    time.title = updated.toLocaleString();
    time.textContent = ago(Date.now() - this.#data.updatedAt);
    const failed = this.#problem === 'failed' || this.#problem === 'offline';
    age.className = failed || Date.now() - this.#data.updatedAt > OLD_MS ? 'stale' : '';
    age.replaceChildren('Updated ', time, failed ? ' — couldn’t refresh' : '');
  }
}

if (!customElements.get(TAG)) customElements.define(TAG, ParkWaits);
