/**
 * `npm run lint:cycles`: no import cycles, type-only imports included (a cycle through types
 * still ties the modules together). https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md
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
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.astro|\\.netlify)/' },
  },
};
