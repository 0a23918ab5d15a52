/**
 * `npm run lint:cycles`: no import cycles, type-only imports included (a cycle through types
 * still ties the modules together); the platform below the features; @netlify/* only in the platform. https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md
 */

/**
 * Who may import whom, feature by feature: everything else is refused. Features sit on the platform
 * (which every one may import); the endpoints (src/pages/, netlify/functions/) sit on all of them.
 * Inside wait-times the house has floors, read from the bottom: its base files (parks, schemas,
 * local time, the queue-times client, the stored answer), hours/, forecast/ (the learned profile
 * and its history), outages/ (down rides and reopen odds), events/ (what changed, for feeds and pushes), day/, accuracy/ (served forecasts graded), live/ (what GET /api/wait-times
 * reads), and recorder/ on top, the one writer (docs/architecture.md).
 */
const ALLOWED = {
  'wait-times/hours': ['wait-times'],
  'wait-times/forecast': ['wait-times', 'wait-times/hours'],
  'wait-times/outages': ['wait-times', 'wait-times/hours'],
  'wait-times/events': ['wait-times', 'wait-times/hours', 'wait-times/outages'],
  'wait-times/day': ['wait-times', 'wait-times/hours', 'wait-times/forecast', 'wait-times/outages'],
  'wait-times/accuracy': ['wait-times', 'wait-times/hours', 'wait-times/forecast', 'wait-times/day'],
  'wait-times/live': [
    'wait-times',
    'wait-times/hours',
    'wait-times/forecast',
    'wait-times/outages',
    'wait-times/accuracy',
  ],
  'wait-times/recorder': [
    'wait-times',
    'wait-times/hours',
    'wait-times/forecast',
    'wait-times/outages',
    'wait-times/events',
    'wait-times/day',
    'wait-times/accuracy',
    'wait-times/live',
  ],
  'wait-times': [],
  alerts: ['wait-times', 'wait-times/hours', 'wait-times/events'],
  location: [],
  contact: [],
  'photo-feed': ['jobs'],
  jobs: ['wait-times/recorder', 'wait-times/accuracy', 'alerts'],
  mcp: [
    'location',
    'wait-times',
    'wait-times/hours',
    'wait-times/outages',
    'wait-times/events',
    'wait-times/day',
    'wait-times/accuracy',
    'wait-times/live',
  ],
  // Types only (the rule widget-takes-only-types below).
  widget: ['wait-times', 'wait-times/day', 'wait-times/hours', 'wait-times/outages', 'wait-times/accuracy'],
  discovery: [
    'location',
    'contact',
    'jobs',
    'photo-feed',
    'wait-times',
    'wait-times/hours',
    'wait-times/outages',
    'wait-times/events',
    'wait-times/day',
    'wait-times/accuracy',
    'wait-times/live',
    'alerts',
  ],
};
/** A feature's own files: for `wait-times`, only those directly in the folder (its base). */
const filesOf = (feature) => (feature === 'wait-times' ? '^src/wait-times/[^/]+$' : `^src/${feature}/`);
const allowedImports = Object.entries(ALLOWED).map(([feature, allowed]) => ({
  name: `${feature.replace('/', '-')}-imports-only-what-is-below`,
  severity: 'error',
  comment: `${feature} may import only the platform${allowed.length ? `, ${allowed.join(', ')}` : ''} and itself (.dependency-cruiser.cjs, ALLOWED).`,
  from: { path: filesOf(feature) },
  to: {
    path: '^src/(wait-times|location|contact|jobs|photo-feed|alerts|discovery|mcp|widget|pages|layouts)/',
    pathNot: [feature, ...allowed].map(filesOf),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...allowedImports,
    {
      name: 'a-get-reads',
      severity: 'error',
      comment:
        'Pages and GET endpoints read what the recorder wrote; only the scheduled function reaches it (through jobs/).',
      from: { path: '^src/pages/' },
      to: { path: '^src/(wait-times/recorder|jobs/record-waits-job)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other in a circle; move the shared piece to one side (or a module below both).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-below-features',
      severity: 'error',
      comment: 'The platform serves every feature and knows none of them (docs/architecture.md).',
      from: { path: '^src/platform/' },
      to: { path: '^src/(wait-times|location|contact|jobs|photo-feed|discovery|widget)/' },
    },
    {
      name: 'widget-takes-only-types',
      severity: 'error',
      comment:
        'The widget is one small browser script (scripts/build-widget.mts): it takes only types from the rest, and the time units (plain numbers).',
      from: { path: '^src/widget/' },
      to: { pathNot: '^src/(widget/|platform/time-units\\.ts$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'features-off-the-platform-sdk',
      severity: 'error',
      comment:
        'Feature code takes and returns plain values; only src/platform/ imports @netlify/* (docs/architecture.md).',
      from: { path: '^src/(wait-times|location|contact|jobs|photo-feed|discovery)/' },
      to: { path: '(^|/)node_modules/@netlify/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.astro|\\.netlify)/' },
  },
};
