/** Styles of the shadow root; pages adjust them through --park-waits-* and ::part(). */
export const CSS = `
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
.toolbar[hidden], table[hidden], .summary[hidden] { display: none; }
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
.summary p { margin: 0 0 0.375rem; }
.crowd { font-weight: 600; }
.axis { display: flex; justify-content: space-between; gap: 0 0.5rem; font-size: 0.75em; color: var(--_muted); }
.axis span:not(.legend) { white-space: nowrap; }
svg { display: block; overflow: visible; }
.park-chart { inline-size: 100%; block-size: 4.5rem; }
.chart { inline-size: 100%; block-size: 2.25rem; }
.usual { fill: var(--_muted); opacity: 0.22; stroke: none; }
/* Lines and dots keep their size however the chart stretches: a dot is a round cap on a path of length 0. */
path:where(:not(.usual)) { fill: none; stroke: var(--_accent); stroke-width: 2; stroke-linejoin: round; stroke-linecap: round; }
.forecast { stroke-dasharray: 3 4; }
.now { stroke-width: 6; }
.soon { stroke-width: 4; }
.ring { stroke-width: 9; }
.hole { stroke: var(--_bg); stroke-width: 4; }
.nowline { stroke: var(--_muted); stroke-width: 1; stroke-dasharray: 2 2; stroke-linecap: butt; }
.day { vertical-align: middle; inline-size: 10rem; }
.usually, .best { display: block; font-size: 0.75em; color: var(--_muted); white-space: nowrap; }
.best { white-space: normal; }
/* Narrow (a phone, a sidebar): room for ride names; "min" stays for screen readers only. */
@container (max-width: 26rem) {
  .frame { padding: 0.625rem; }
  th, td { padding-inline: 0.25rem; }
  thead .num { white-space: normal; }
  .unit { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); }
  /* The chart shrinks before the ride names do; "usually" stays in the sentence read out. */
  .day { inline-size: 3.75rem; }
  .usually { display: none; }
  /* The legend goes below the two times. */
  .axis { flex-wrap: wrap; }
  .legend { order: 1; inline-size: 100%; }
  tbody th { overflow-wrap: break-word; hyphens: auto; }
}`;
