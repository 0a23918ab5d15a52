import { defineConfig } from '@playwright/test';
import { SITE_PORT as PORT, UPSTREAM_PORT } from './tests/support/browser-harness.ts';
import { SLOW_MACHINE_LIMITS } from './tests/support/slow-machine.ts';

// Debian's Chromium: a downloaded browser cannot be installed here. The flags keep it from
// reaching for the network at start-up.
export default defineConfig({
  testDir: 'tests/browser',
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  timeout: 30_000,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node tests/support/browser-site.mts`,
    url: `http://127.0.0.1:${PORT}/api/wait-times?park=epcot`,
    env: { PORT: String(PORT), BROWSER_UPSTREAM_PORT: String(UPSTREAM_PORT), ...SLOW_MACHINE_LIMITS },
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
