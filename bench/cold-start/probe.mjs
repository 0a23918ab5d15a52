// One cold start, in a fresh process forked by bench/cold-start/cold-start.mts: imports a function module as
// the platform loads it from its unzipped bundle, answers one request, and reports the times since
// this process started (performance.now() counts from there). Plain JavaScript, like the baseline,
// so Node's TypeScript stripping does not add to the figures.
process.once('message', async (probe) => {
  const module = await import(probe.module);
  const imported = performance.now();
  const context = { ip: '127.0.0.1', params: {}, requestId: 'bench', waitUntil: () => {} };
  const response = await module.default(new Request(probe.url, probe.init), context);
  await response.arrayBuffer();
  process.send?.({ status: response.status, imported, answered: performance.now() });
});
