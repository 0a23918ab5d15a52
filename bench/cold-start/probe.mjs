// One cold start, in a fresh process forked by bench/cold-start/cold-start.mts: loads Netlify's
// bootstrap (as every function's entry point does first), then a function module from its unzipped
// bundle, answers one request, and reports the times since this process started (performance.now()
// counts from there). Plain JavaScript, like the baselines, so Node's TypeScript stripping does not
// add to the figures.
process.once('message', async (probe) => {
  await import(probe.bootstrap);
  const bootstrapped = performance.now();
  const module = await import(probe.module);
  const imported = performance.now();
  const afterAnswer = [];
  const context = { ip: '127.0.0.1', params: {}, requestId: 'bench', waitUntil: (task) => afterAnswer.push(task) };
  const response = await module.default(new Request(probe.url, probe.init), context);
  await response.arrayBuffer();
  const answered = performance.now();
  // As on Netlify, the process lives on until what was handed to waitUntil has settled.
  await Promise.allSettled(afterAnswer);
  process.send?.({ status: response.status, bootstrapped, imported, answered }, () => process.exit(0));
});
