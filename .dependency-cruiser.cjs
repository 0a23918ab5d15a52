/**
 * `npm run lint:cycles`: no import cycles, type-only imports included (a cycle through types
 * still ties the modules together); the platform below the features; @netlify/* only in the platform. https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
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
