import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

// Preloaded (`node --import`) into a served site by `npm run soak`, never in production. Answers
// `{type:'memory'}` over IPC with process.memoryUsage() plus, since the previous answer: the CPU
// time used, the event loop delay, the garbage collector's pauses, and the heap left after the
// newest major (mark-compact) collection: what is still reachable, the figure a leak makes grow.
// Nothing is forced: a full collection on demand would stall the server and show up as latency.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let cpuSince = process.cpuUsage();
let cpuSinceAt = performance.now();
let gc = { pauses: 0, pauseMs: 0, maxPauseMs: 0, majors: 0 };
let heapAfterMajorGc: number | null = null;

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.pauses += 1;
    gc.pauseMs += entry.duration;
    gc.maxPauseMs = Math.max(gc.maxPauseMs, entry.duration);
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      gc.majors += 1;
      // Entries are delivered after the collection, before much new allocation.
      heapAfterMajorGc = process.memoryUsage().heapUsed;
    }
  }
}).observe({ entryTypes: ['gc'] });

process.on('message', (message: { type?: string }) => {
  if (message?.type !== 'memory') return;
  const now = performance.now();
  const cpu = process.cpuUsage(cpuSince);
  process.send?.({
    type: 'memory-usage',
    ...process.memoryUsage(),
    heapAfterMajorGc,
    cpuPercent: ((cpu.user + cpu.system) / 1000 / Math.max(1, now - cpuSinceAt)) * 100,
    loop: { p99Ms: loopDelay.percentile(99) / 1e6, maxMs: loopDelay.max / 1e6 },
    gc,
  });
  loopDelay.reset();
  gc = { pauses: 0, pauseMs: 0, maxPauseMs: 0, majors: 0 };
  cpuSince = process.cpuUsage();
  cpuSinceAt = now;
});
