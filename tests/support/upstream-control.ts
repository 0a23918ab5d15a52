import type { FakeQueueTimesControl } from '../../scripts/fake-queue-times.mts';
import { UPSTREAM_PORT } from './browser-harness.ts';

/** Steers the browser harness's fake queue-times (mode, delay, payloads) through its control endpoint. */
export async function steerUpstream(change: FakeQueueTimesControl): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${UPSTREAM_PORT}/__control`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(change),
  });
  if (!response.ok) throw new Error(`fake upstream control: ${response.status} ${await response.text()}`);
}
