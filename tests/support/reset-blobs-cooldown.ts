import { beforeEach } from 'vitest';
import { resetBlobsCooldown } from '../../src/platform/store.ts';

// A test that simulates a Blobs outage in-process leaves the store cooling down; the next test
// starts with Blobs available again.
beforeEach(() => resetBlobsCooldown());
