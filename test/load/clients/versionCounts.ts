// What the load client load/versionChecker.ts reports when its time is up, for the tests that read it.
import { z } from 'zod';

export const VersionCounts = z.object({
  requests: z.number(),
  socket_errors: z.number(),
  checked: z.number(),
  not_ok: z.number(),
  mixed: z.number(),
  by_stand: z.record(z.string(), z.number()),
});
