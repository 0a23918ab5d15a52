/**
 * <park-waits park="epcot"></park-waits>: live ride waits for one park, from /api/wait-times, and
 * each ride's day so far against its usual day, from /api/wait-times/history.
 * Plain modern JavaScript, no dependencies, no build step. Load it with one classic script tag:
 *   <script src="https://SITE/widgets/park-waits.js" defer></script>
 * Attributes: park (required), api-base (default: the origin this script came from), open-only,
 * sort (name | wait-desc | wait-asc), label, theme (light | dark; default: the reader's setting).
 * Styling: CSS custom properties --park-waits-* and ::part()s, documented in the README.
 */
(() => {
  const TAG = 'park-waits';
  if (customElements.get(TAG)) return;

  /** The API reuses its data for 5 minutes (SPEC 4.1): asking sooner only returns the same answer. */
  const FRESH_MS = 5 * 60_000;
  /** Never ask more often than this, whatever the data says. */
  const MIN_INTERVAL_MS = 60_000;
  /** Retries after failures back off up to this. */
  const MAX_BACKOFF_MS = 5 * 60_000;
  /** Saved data older than this is not shown; the API itself never serves data older than 24 h. */
  const KEEP_MS = 24 * 60 * 60_000;
  const TIMEOUT_MS = 15_000;
  const ATTRIBUTION_URL = 'https://queue-times.com/';

  /** Data older than this is shown as old (the API serves old data while its upstream is down). */
  const OLD_MS = 15 * 60_000;

  // The script's own origin is the default API origin, so the element works when embedded elsewhere
  // (the API answers with Access-Control-Allow-Origin: *). currentScript is only set while a classic
  // script first runs; the lookup covers a module script.
  const DEFAULT_BASE = new URL(
    '/',
    document.currentScript?.src || document.querySelector('script[src*="park-waits.js"]')?.src || location.href,
  ).href;

  const TRENDS = { up: ['↑', 'rising'], down: ['↓', 'falling'], flat: ['→', 'steady'] };
  const byName = (a, b) => a.name.localeCompare(b.name);
  // Sorting by wait puts closed rides last either way.
  const SORTS = {
    name: byName,
    'wait-desc': (a, b) => b.open - a.open || b.wait - a.wait || byName(a, b),
    'wait-asc': (a, b) => b.open - a.open || a.wait - b.wait || byName(a, b),
  };

  const HALF_HOUR = 30 * 60_000;
  const SVG = 'http://www.w3.org/2000/svg';

  const CSS = `
:host {
  --_bg: var(--park-waits-bg, light-dark(#fff, #16181d));
  --_fg: var(--park-waits-fg, light-dark(#1b1d22, #e8eaed));
  --_muted: var(--park-waits-muted, light-dark(#575d68, #a9b0bb));
  --_border: var(--park-waits-border, light-dark(#d3d8df, #3b404b));
  --_subtle: var(--park-waits-subtle, light-dark(#f3f5f8, #1f222a));
  --_accent: var(--park-waits-accent, light-dark(#0b57d0, #8ab4f8));
  --_up: var(--park-waits-up, light-dark(#b3261e, #f28b82));
  --_down: var(--park-waits-down, light-dark(#146c2e, #81c995));
  --_warning: var(--park-waits-warning, light-dark(#8a4700, #fdd663));
  color-scheme: light dark;
  display: block;
  color: var(--_fg);
  background: var(--_bg);
  border: 1px solid var(--_border);
  border-radius: var(--park-waits-radius, 0.5rem);
  font: var(--park-waits-font, 1rem/1.45 system-ui, sans-serif);
}
:host([hidden]) { display: none; }
:host([theme='light']) { color-scheme: light; }
:host([theme='dark']) { color-scheme: dark; }
.frame { container-type: inline-size; padding: 1rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: center; margin-block-end: 0.75rem; }
.toolbar[hidden], table[hidden] { display: none; }
label { display: inline-flex; align-items: center; gap: 0.4rem; min-block-size: 2rem; }
input { inline-size: 1.125rem; block-size: 1.125rem; margin: 0; accent-color: var(--_accent); }
select {
  font: inherit; color: inherit; background: var(--_bg); min-block-size: 2rem;
  border: 1px solid var(--_border); border-radius: 0.375rem; padding: 0.125rem 0.375rem;
}
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.status { margin: 0 0 0.75rem; padding: 0.625rem 0.75rem; border-radius: 0.375rem; background: var(--_subtle); }
.status:empty { margin: 0; padding: 0; }
.status.problem { border-inline-start: 4px solid var(--_warning); }
table { inline-size: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: start; font-weight: 600; font-size: 1.125em; padding-block-end: 0.5rem; }
th, td { padding: 0.5rem; text-align: start; vertical-align: baseline; border-block-end: 1px solid var(--_border); }
thead th { font-size: 0.8125em; font-weight: 600; color: var(--_muted); white-space: nowrap; }
tbody th { font-weight: 500; overflow-wrap: anywhere; }
.num { text-align: end; white-space: nowrap; }
.trend { text-align: center; font-weight: 700; }
.up { color: var(--_up); }
.down { color: var(--_down); }
.flat, .closed, .none { color: var(--_muted); }
.none { font-weight: 400; }
.footer {
  display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0.25rem 1rem;
  margin: 0.75rem 0 0; font-size: 0.875em; color: var(--_muted);
}
.stale { color: var(--_warning); }
a { color: var(--_accent); font-weight: 600; text-underline-offset: 0.15em; }
.vh {
  position: absolute; inline-size: 1px; block-size: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}
.summary { margin: 0 0 0.75rem; }
.summary[hidden] { display: none; }
.summary p { margin: 0 0 0.375rem; }
.crowd { font-weight: 600; }
.axis { display: flex; justify-content: space-between; font-size: 0.75em; color: var(--_muted); }
svg { display: block; overflow: visible; }
.park-chart { inline-size: 100%; block-size: 4.5rem; }
.chart { inline-size: 100%; block-size: 2.25rem; }
.usual { fill: var(--_muted); opacity: 0.22; stroke: none; }
.today, .forecast { fill: none; stroke: var(--_accent); stroke-width: 2; stroke-linejoin: round; stroke-linecap: round; }
.forecast { stroke-dasharray: 3 3; }
.now { fill: var(--_accent); }
.soon { fill: var(--_bg); stroke: var(--_accent); stroke-width: 1.5; }
.nowline { stroke: var(--_muted); stroke-width: 1; stroke-dasharray: 2 2; }
.day { vertical-align: middle; inline-size: 9rem; }
.usually { display: block; font-size: 0.75em; color: var(--_muted); white-space: nowrap; }
/* Narrow (a phone, a sidebar): room for ride names; "min" stays for screen readers only. */
@container (max-width: 26rem) {
  .frame { padding: 0.625rem; }
  th, td { padding-inline: 0.25rem; }
  thead .num { white-space: normal; }
  .unit { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); }
  /* The chart shrinks before the ride names do; "usually" stays in the sentence read out. */
  .day { inline-size: 3.75rem; }
  .usually { display: none; }
  tbody th { overflow-wrap: break-word; hyphens: auto; }
}`;

  let sheet = null;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  } catch {
    sheet = null; // older browsers: a <style> element below
  }

  /** A DOM element with attributes and children; text always goes in as text, never as markup. */
  function h(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== false && value != null) node.setAttribute(name, value === true ? '' : value);
    }
    node.append(...children.flat().filter((child) => child != null && child !== false));
    return node;
  }

  const hidden = (text) => h('span', { class: 'vh' }, text);
  const minutes = (value) => [String(value), h('span', { class: 'unit' }, ' min')];
  const symbol = (glyph) => h('span', { 'aria-hidden': 'true' }, glyph);

  function ago(ms) {
    const total = Math.max(0, Math.floor(ms / 60_000));
    if (total < 1) return 'just now';
    if (total < 60) return `${total} min ago`;
    const hours = Math.floor(total / 60);
    return total % 60 ? `${hours} h ${total % 60} min ago` : `${hours} h ago`;
  }

  /** A few seconds of spread, so that many readers do not all ask at the same instant. */
  const spread = () => Math.random() * 5_000;

  const isWaitTimes = (body) =>
    body !== null &&
    typeof body === 'object' &&
    Number.isFinite(body.updatedAt) &&
    Array.isArray(body.rides) &&
    body.rides.every(
      (ride) => ride && typeof ride.name === 'string' && Number.isFinite(ride.wait) && typeof ride.open === 'boolean',
    );

  /** Seconds or an HTTP date, as Retry-After allows; 0 when absent or unreadable. */
  function retryAfterMs(value) {
    if (!value) return 0;
    const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - Date.now();
    return Number.isFinite(ms) ? Math.max(0, ms) : 0;
  }

  class ParkWaits extends HTMLElement {
    static observedAttributes = ['park', 'api-base', 'open-only', 'sort', 'label'];

    #data = null;
    /** The park's day so far (GET /api/wait-times/history), or null. */
    #day = null;
    /** null, or what went wrong last: 'offline' | 'failed' | 'unknown-park' | 'no-park'. */
    #problem = null;
    #loading = false;
    #failures = 0;
    #lastFetchAt = 0;
    #dueAt = null;
    #timer = 0;
    #ticker = 0;
    #request = null;
    /** The endpoint the data belongs to: a move in the document keeps it, a new park does not. */
    #endpointShown = '';
    #openOnly;
    #sortSelect;
    #toolbar;
    #status;
    #caption;
    #rows;
    #table;
    #time;
    #age;
    #summary;

    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      if (sheet && 'adoptedStyleSheets' in root) root.adoptedStyleSheets = [sheet];
      else root.append(h('style', {}, CSS));

      this.#openOnly = h('input', { type: 'checkbox', part: 'open-only' });
      this.#sortSelect = h(
        'select',
        { part: 'sort' },
        h('option', { value: 'name' }, 'Name'),
        h('option', { value: 'wait-desc' }, 'Longest wait'),
        h('option', { value: 'wait-asc' }, 'Shortest wait'),
      );
      this.#openOnly.addEventListener('change', () => this.toggleAttribute('open-only', this.#openOnly.checked));
      this.#sortSelect.addEventListener('change', () => this.setAttribute('sort', this.#sortSelect.value));

      this.#toolbar = h(
        'div',
        { class: 'toolbar', part: 'toolbar' },
        h('label', {}, this.#openOnly, 'Open rides only'),
        h('label', {}, 'Sort by', this.#sortSelect),
      );
      this.#status = h('p', { class: 'status', part: 'status', role: 'status' });
      this.#caption = h('caption', { part: 'caption' });
      this.#rows = h('tbody');
      this.#table = h(
        'table',
        { part: 'table' },
        this.#caption,
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Ride'),
            h('th', { scope: 'col', class: 'num' }, 'Wait'),
            h('th', { scope: 'col', class: 'trend' }, 'Trend', hidden(' over the last 30 minutes')),
            h('th', { scope: 'col', class: 'num' }, hidden('Forecast '), 'In 30 min'),
            h('th', { scope: 'col', class: 'day' }, 'Today', hidden(' against a usual day')),
          ),
        ),
        this.#rows,
      );
      this.#time = h('time');
      this.#age = h('span', { part: 'age' });
      // The provider's terms: "Powered by Queue-Times.com", linked, shown wherever its data is.
      const attribution = h('a', { href: ATTRIBUTION_URL, part: 'attribution' }, 'Powered by Queue-Times.com');
      this.#summary = h('div', { class: 'summary', part: 'summary' });
      root.append(
        h(
          'div',
          { class: 'frame', part: 'frame' },
          this.#toolbar,
          this.#status,
          this.#summary,
          this.#table,
          h('p', { class: 'footer', part: 'footer' }, this.#age, attribution),
        ),
      );
    }

    connectedCallback() {
      document.addEventListener('visibilitychange', this.#onVisibility);
      window.addEventListener('online', this.#onOnline);
      this.#start();
    }

    disconnectedCallback() {
      document.removeEventListener('visibilitychange', this.#onVisibility);
      window.removeEventListener('online', this.#onOnline);
      this.#stop();
    }

    attributeChangedCallback(name, previous, value) {
      if (previous === value || !this.isConnected) return;
      if (name === 'park' || name === 'api-base') {
        this.#stop();
        this.#start();
      } else {
        this.#render();
      }
    }

    /** Nothing runs while nobody looks; what fell due meanwhile runs when the page shows again. */
    #onVisibility = () => {
      if (document.hidden) {
        clearTimeout(this.#timer);
        clearInterval(this.#ticker);
      } else {
        this.#arm();
        this.#tick();
      }
    };

    #onOnline = () => {
      this.#dueAt = Date.now();
      this.#arm();
    };

    get #park() {
      return (this.getAttribute('park') ?? '').trim();
    }

    get #endpoint() {
      return this.#url('api/wait-times');
    }

    #url(path) {
      let base;
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

    get #storageKey() {
      return `park-waits:${this.#endpoint}`;
    }

    #start() {
      const endpoint = this.#endpoint;
      if (this.#endpointShown !== endpoint) {
        this.#endpointShown = endpoint;
        this.#problem = null;
        this.#failures = 0;
        this.#lastFetchAt = 0;
        this.#dueAt = null;
        this.#data = this.#park ? this.#restore() : null;
        this.#day = this.#data ? this.#restore(':day') : null;
        // A saved copy the API would still answer with needs no request until it ages out.
        const freshFor = this.#data ? this.#data.updatedAt + FRESH_MS - Date.now() : 0;
        if (freshFor > 0) this.#dueAt = Date.now() + freshFor + spread();
      }
      this.#render();
      this.#tick();
      // Back in the document with a refresh planned (it was moved): keep the plan.
      if (this.#dueAt === null) this.#load();
      else this.#arm();
    }

    #stop() {
      clearTimeout(this.#timer);
      clearInterval(this.#ticker);
      this.#request?.abort();
      this.#request = null;
    }

    #schedule(delay) {
      this.#dueAt = Date.now() + delay;
      this.#arm();
    }

    #arm() {
      clearTimeout(this.#timer);
      if (this.#dueAt === null || document.hidden || !this.isConnected) return;
      this.#timer = setTimeout(() => this.#load(), Math.max(0, this.#dueAt - Date.now()));
    }

    /** Keeps "updated … ago" true while the page is visible. */
    #tick() {
      clearInterval(this.#ticker);
      this.#renderAge();
      if (!document.hidden) this.#ticker = setInterval(() => this.#renderAge(), 30_000);
    }

    async #load() {
      clearTimeout(this.#timer);
      this.#dueAt = null;
      if (!this.#park) return this.#fail('no-park');
      if (this.#request) return;
      const since = Date.now() - this.#lastFetchAt;
      if (since < MIN_INTERVAL_MS) return this.#schedule(MIN_INTERVAL_MS - since);
      if (navigator.onLine === false) return this.#fail('offline', MIN_INTERVAL_MS);

      this.#lastFetchAt = Date.now();
      const request = new AbortController();
      this.#request = request;
      const timeout = setTimeout(() => request.abort(new DOMException('timed out', 'TimeoutError')), TIMEOUT_MS);
      this.#loading = true;
      this.#render();
      try {
        // The browser's HTTP cache revalidates with If-None-Match (the API sends an ETag and
        // max-age=0), so an unchanged answer costs a 304.
        // The day is an extra, drawn when it arrives: it never holds up the table or the next
        // refresh, and its failure leaves the table as it is.
        const shown = this.#endpointShown;
        fetch(this.#url('api/wait-times/history'), { signal: request.signal })
          .then((answer) => (answer.ok ? answer.json() : null))
          .then((day) => {
            if (!isDay(day) || this.#endpointShown !== shown) return;
            this.#day = day;
            this.#save(day, ':day');
            this.#render();
          })
          .catch(() => {});
        const response = await fetch(this.#endpoint, { signal: request.signal });
        if (response.ok) {
          const body = await response.json();
          if (!isWaitTimes(body)) throw new TypeError('unexpected response');
          this.#succeed(body);
        } else if (response.status === 400 || response.status === 404) {
          this.#fail('unknown-park');
        } else {
          this.#fail('failed', retryAfterMs(response.headers.get('Retry-After')));
        }
      } catch (error) {
        if (this.#request !== request) return; // stopped: the park changed or the element left
        this.#fail(navigator.onLine === false ? 'offline' : 'failed', 0, error);
      } finally {
        clearTimeout(timeout);
        if (this.#request === request) {
          this.#request = null;
          this.#loading = false;
          this.#render();
        }
      }
    }

    #succeed(body) {
      this.#data = body;
      this.#problem = null;
      this.#failures = 0;
      this.#save(body);
      // Next look: when the API's copy turns 5 minutes old, within [1 min, 5 min].
      const fresh = body.updatedAt + FRESH_MS - Date.now();
      this.#schedule(Math.min(Math.max(fresh, MIN_INTERVAL_MS), FRESH_MS) + spread());
      this.#tick();
    }

    #fail(problem, retryAfter = 0, error = null) {
      this.#problem = problem;
      if (error && error.name !== 'AbortError' && error.name !== 'TimeoutError') {
        console.warn(`<${TAG} park="${this.#park}">: ${error.message}`);
      }
      if (problem === 'unknown-park' || problem === 'no-park') return this.#render();
      this.#failures += 1;
      const backoff = Math.min(MIN_INTERVAL_MS * 2 ** (this.#failures - 1), MAX_BACKOFF_MS);
      this.#schedule(Math.max(backoff, retryAfter));
      this.#render();
    }

    #restore(suffix = '') {
      try {
        const saved = JSON.parse(localStorage.getItem(this.#storageKey + suffix) ?? 'null');
        if (suffix) return isDay(saved) && saved.dayEndsAt > Date.now() ? saved : null;
        return isWaitTimes(saved) && Date.now() - saved.updatedAt < KEEP_MS ? saved : null;
      } catch {
        return null; // storage may be disabled or full; the element works without it
      }
    }

    #save(body, suffix = '') {
      try {
        localStorage.setItem(this.#storageKey + suffix, JSON.stringify(body));
      } catch {
        // as above
      }
    }

    #message() {
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

    #state() {
      if (this.#problem && !this.#data) return 'error';
      if (this.#problem) return 'stale';
      if (!this.#data) return 'loading';
      return this.#data.rides.length === 0 ? 'closed' : 'ready';
    }

    #render() {
      const rides = this.#data?.rides ?? [];
      const openOnly = this.hasAttribute('open-only');
      const sort = Object.hasOwn(SORTS, this.getAttribute('sort') ?? '') ? this.getAttribute('sort') : 'name';
      const shown = rides.filter((ride) => ride.open || !openOnly).sort(SORTS[sort]);

      this.#openOnly.checked = openOnly;
      this.#sortSelect.value = sort;
      this.#toolbar.hidden = rides.length === 0;
      this.#caption.textContent = this.getAttribute('label') || 'Live wait times';
      this.#table.hidden = shown.length === 0;
      const day = dayView(this.#day, this.#data);
      this.#rows.replaceChildren(...shown.map((ride) => row(ride, day)));
      this.#summary.hidden = !day || rides.length === 0;
      this.#summary.replaceChildren(...(day ? summary(day) : []));

      const message = this.#message();
      if (this.#status.textContent !== message) this.#status.textContent = message;
      this.#status.classList.toggle('problem', this.#problem !== null);
      this.setAttribute('state', this.#state());
      this.setAttribute('aria-busy', String(this.#loading && !this.#data));
      this.#renderAge();
    }

    #renderAge() {
      if (!this.#data) return this.#age.replaceChildren();
      const updated = new Date(this.#data.updatedAt);
      this.#time.dateTime = updated.toISOString();
      this.#time.title = updated.toLocaleString();
      this.#time.textContent = ago(Date.now() - this.#data.updatedAt);
      const failed = this.#problem === 'failed' || this.#problem === 'offline';
      this.#age.className = failed || Date.now() - this.#data.updatedAt > OLD_MS ? 'stale' : '';
      this.#age.replaceChildren('Updated ', this.#time, failed ? ' — couldn’t refresh' : '');
    }
  }

  function row(ride, day) {
    const trend = Object.hasOwn(TRENDS, ride.trend) ? ride.trend : 'flat';
    const [arrow, word] = TRENDS[trend];
    return h(
      'tr',
      { part: ride.open ? 'row' : 'row closed-row', class: ride.open ? null : 'closed' },
      h('th', { scope: 'row' }, ride.name),
      h('td', { class: 'num' }, ride.open ? minutes(ride.wait) : 'Closed'),
      ride.open
        ? h('td', { class: `trend ${trend}` }, symbol(arrow), hidden(word))
        : h('td', { class: 'trend none' }, symbol('–'), hidden('none')),
      ride.open && Number.isFinite(ride.forecast)
        ? h('td', { class: 'num' }, minutes(ride.forecast))
        : h('td', { class: 'num none' }, symbol('–'), hidden('no forecast')),
      dayCell(ride, day),
    );
  }

  const isDay = (body) =>
    body !== null &&
    typeof body === 'object' &&
    Array.isArray(body.times) &&
    Array.isArray(body.rides) &&
    Number.isFinite(body.dayEndsAt) &&
    body.rides.every((ride) => ride && Array.isArray(ride.waits) && Array.isArray(ride.usual));

  const known = (value) => Number.isFinite(value);

  /**
   * What the charts share: the time span (the hours with samples or a usual wait), the wait scale,
   * the rides of the day by name and the half hour of "now" (the time of the live data).
   */
  function dayView(day, data) {
    if (!day || !data) return null;
    // Start of half hour i of the local day; counted back from the day's end, so it stays right
    // after a DST change (they happen at night, before any park opens).
    const slotAt = (i) => day.dayEndsAt - (48 - i) * HALF_HOUR;
    const learned = [];
    for (let i = 0; i < 48; i++) if (day.rides.some((ride) => known(ride.usual[i]))) learned.push(i);
    const now = data.updatedAt;
    const starts = [day.times[0], learned.length ? slotAt(learned[0]) : NaN].filter(known);
    const ends = [now + HALF_HOUR, learned.length ? slotAt(learned.at(-1) + 1) : NaN].filter(known);
    if (starts.length === 0 || (day.times.length === 0 && learned.length === 0)) return null;
    const start = Math.min(...starts);
    const end = Math.max(...ends, start + HALF_HOUR);
    let max = 30;
    for (const ride of day.rides)
      for (const wait of [...ride.waits, ...ride.usual]) if (known(wait)) max = Math.max(max, wait);
    for (const ride of data.rides) if (known(ride.forecast)) max = Math.max(max, ride.forecast, ride.wait);
    const nowIndex = Math.min(47, Math.max(0, 48 - Math.ceil((day.dayEndsAt - now) / HALF_HOUR)));
    return {
      day,
      data,
      start,
      end,
      max: Math.ceil(max / 30) * 30,
      slotAt,
      now,
      nowIndex,
      byName: new Map(day.rides.map((ride) => [ride.name, ride])),
    };
  }

  function svg(tag, attributes = {}, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) if (value != null) node.setAttribute(name, value);
    node.append(...children.filter(Boolean));
    return node;
  }

  const fixed = (value) => Math.round(value * 10) / 10;

  /**
   * A chart of one series against its usual day: the usual wait per half hour as a faint band,
   * today's waits as a line (broken while closed), now as a dot and the forecast as a dashed step.
   */
  function chart(view, { width, height, cls, waits, usual, nowWait, soon, label }) {
    const x = (t) => fixed(((t - view.start) / (view.end - view.start)) * width);
    const y = (w) => fixed(height - (Math.min(w, view.max) / view.max) * height);
    let band = '';
    usual.forEach((wait, i) => {
      if (!known(wait)) return;
      const [from, to] = [x(view.slotAt(i)), x(view.slotAt(i + 1))];
      if (to < 0 || from > width) return;
      band += `M${Math.max(0, from)} ${height}V${y(wait)}H${Math.min(width, to)}V${height}Z`;
    });
    let line = '';
    let open = false;
    view.day.times.forEach((t, i) => {
      const wait = waits[i];
      if (!known(wait)) {
        open = false;
        return;
      }
      line += `${open ? 'L' : 'M'}${x(t)} ${y(wait)}`;
      if (!open && !known(waits[i + 1])) line += 'h0';
      open = true;
    });
    // Stretched to the space it gets; strokes and dots keep their size (non-scaling strokes).
    const frame = { class: cls, viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'none' };
    const attributes = label
      ? { ...frame, role: 'img', 'aria-label': label }
      : { ...frame, 'aria-hidden': 'true', focusable: 'false' };
    const stroke = (name, d) => svg('path', { class: name, d, 'vector-effect': 'non-scaling-stroke' });
    const dot = (name, t, wait) => stroke(name, `M${x(t)} ${y(wait)}h0`);
    return svg(
      'svg',
      attributes,
      band && svg('path', { class: 'usual', d: band }),
      stroke('nowline', `M${x(view.now)} 0V${height}`),
      line && stroke('today', line),
      known(nowWait) &&
        known(soon) &&
        stroke('forecast', `M${x(view.now)} ${y(nowWait)}L${x(view.now + HALF_HOUR)} ${y(soon)}`),
      known(nowWait) && known(soon) && dot('soon', view.now + HALF_HOUR, soon),
      known(nowWait) && dot('now', view.now, nowWait),
    );
  }

  /** "45 min now, usually 30 at this hour, about 50 in half an hour", or as much of it as is known. */
  function sentence(ride, usualNow) {
    const usually = known(usualNow) ? `usually ${usualNow} at this hour` : 'no usual wait learned for this hour yet';
    if (!ride.open) return `Closed now, ${usually}`;
    const soon = known(ride.forecast) ? `, about ${ride.forecast} in half an hour` : '';
    return `${ride.wait} min now, ${usually}${soon}`;
  }

  function dayCell(ride, view) {
    const day = view?.byName.get(ride.name);
    if (!day) return h('td', { class: 'day none' }, symbol('–'), hidden('no history today'));
    const usualNow = day.usual[view.nowIndex];
    return h(
      'td',
      { class: 'day', part: 'day' },
      chart(view, {
        width: 120,
        height: 36,
        cls: 'chart',
        waits: day.waits,
        usual: day.usual,
        nowWait: ride.open ? ride.wait : null,
        soon: ride.open ? ride.forecast : null,
      }),
      h('span', { class: 'usually', 'aria-hidden': 'true' }, known(usualNow) ? `usually ${usualNow}` : ''),
      hidden(`${sentence(ride, usualNow)}.`),
    );
  }

  const mean = (values) => {
    const list = values.filter(known);
    return list.length ? list.reduce((sum, value) => sum + value, 0) / list.length : null;
  };

  function clock(at, timeZone) {
    try {
      return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone }).format(at);
    } catch {
      return new Date(at).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
    }
  }

  const CROWD = {
    busier: (pct) => `Busier than usual today: waits are ${pct} % longer than usual at these hours.`,
    quieter: (pct) => `Quieter than usual today: waits are ${pct} % shorter than usual at these hours.`,
    usual: () => 'A usual day: waits are about as long as usual at these hours.',
  };

  /** The park's crowd level in words and its average wait today against the usual day. */
  function summary(view) {
    const { crowd, timeZone } = view.day;
    const word = Object.hasOwn(CROWD, crowd?.level) ? crowd.level : null;
    const text = word
      ? CROWD[word](Math.round(Math.abs(crowd.ratio - 1) * 100))
      : 'Not enough history yet to compare today with a usual day.';
    const basis =
      word && known(crowd.since)
        ? ` Compared ${crowd.comparisons} readings of ${crowd.rides} rides since ${clock(crowd.since, timeZone)}.`
        : '';
    const average = view.day.times.map((_, i) => mean(view.day.rides.map((ride) => ride.waits[i])));
    const usual = Array.from({ length: 48 }, (_, i) => mean(view.day.rides.map((ride) => ride.usual[i])));
    const open = view.data.rides.filter((ride) => ride.open);
    const nowWait = open.length ? Math.round(mean(open.map((ride) => ride.wait))) : null;
    const usualNow = known(usual[view.nowIndex]) ? Math.round(usual[view.nowIndex]) : null;
    const label = `Average wait across rides today against a usual day${
      known(nowWait) ? `: ${nowWait} min now${known(usualNow) ? `, usually ${usualNow} at this hour` : ''}` : ''
    }.`;
    return [
      h('p', {}, h('span', { class: 'crowd', part: 'crowd' }, text), basis),
      chart(view, { width: 300, height: 60, cls: 'park-chart', waits: average, usual, nowWait, soon: null, label }),
      h(
        'p',
        { class: 'axis', 'aria-hidden': 'true' },
        h('span', {}, clock(view.start, timeZone)),
        h('span', {}, 'line: today · band: usual'),
        h('span', {}, clock(view.end, timeZone)),
      ),
    ];
  }

  customElements.define(TAG, ParkWaits);
})();
