import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Tests start real servers on loopback ports and share one built tree; two workers fit this 2-core machine.
    maxWorkers: 2,
  },
});
