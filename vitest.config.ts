import { defineConfig } from 'vitest/config';
import { SLOW_MACHINE_LIMITS } from './tests/support/slow-machine.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          setupFiles: ['tests/support/offline-upstreams.ts'],
          environment: 'node',
          // Longer time limits than the contract's, for a loaded machine (tests/support/slow-machine.ts).
          env: SLOW_MACHINE_LIMITS,
          // Both cores (Vitest's default here is one): the files are independent, mostly importing.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'request',
          include: ['tests/request/**/*.test.ts'],
          setupFiles: ['tests/support/reset-blobs-cooldown.ts', 'tests/support/offline-upstreams.ts'],
          environment: 'node',
          // Longer time limits than the contract's, for a loaded machine (tests/support/slow-machine.ts).
          env: SLOW_MACHINE_LIMITS,
          // Each file starts real servers (site, Blobs, fake upstreams) on loopback. A time-out only
          // guards against a hang: beside a second suite on two cores, tests run 4–8 times slower.
          testTimeout: 180_000,
          // Polls wait on background refreshes, which a machine busy with the browser tier slows
          // past poll's default second.
          expect: { poll: { timeout: 10_000 } },
          // Three files at a time even on two cores (Vitest's default here is one): most of a
          // file's time is spent waiting on its servers, upstream delays and deadlines.
          maxWorkers: 3,
          hookTimeout: 180_000,
        },
      },
      {
        // `npm run verify:netlify`: a site served by Netlify's CLI, or a real deploy (SMOKE_URL).
        test: {
          name: 'smoke',
          include: ['tests/smoke/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
    ],
  },
});
