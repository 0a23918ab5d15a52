// Preloaded (`node --import`) into a served site under test or bench, never in production: lets a
// test move the server's clock forward over IPC instead of waiting for minutes to pass, or hold it
// still, and the soak read the heap the server keeps after a full collection (with `--expose-gc`).
const RealDate = Date;
let offsetMs = 0;
/** While held, the clock stands at this reading (null: it runs). */
let heldAt = null;
const reading = () => heldAt ?? RealDate.now() + offsetMs;

class TestDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(reading());
    else super(...args);
  }
  static now() {
    return reading();
  }
}
globalThis.Date = TestDate;

process.on('message', (message) => {
  if (message?.type === 'heap') {
    globalThis.gc?.();
    process.send?.({ type: 'heap', bytes: process.memoryUsage().heapUsed });
  }
  if (message?.type === 'hold-clock') {
    // Let go, the clock runs on from where it stood.
    if (!message.held && heldAt !== null) offsetMs = heldAt - RealDate.now();
    heldAt = message.held ? reading() : null;
    process.send?.({ type: 'clock-held', held: message.held });
  }
  if (message?.type !== 'advance-clock') return;
  offsetMs += message.ms;
  process.send?.({ type: 'clock-advanced', offsetMs });
});
