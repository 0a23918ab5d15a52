// Preloaded (`node --import`) into a served site under test or bench, never in production: lets a
// test move the server's clock forward over IPC instead of waiting for minutes to pass, and the
// soak read the heap the server keeps after a full collection (with `--expose-gc`).
const RealDate = Date;
let offsetMs = 0;

class TestDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offsetMs;
  }
}
globalThis.Date = TestDate;

process.on('message', (message) => {
  if (message?.type === 'heap') {
    globalThis.gc?.();
    process.send?.({ type: 'heap', bytes: process.memoryUsage().heapUsed });
  }
  if (message?.type !== 'advance-clock') return;
  offsetMs += message.ms;
  process.send?.({ type: 'clock-advanced', offsetMs });
});
