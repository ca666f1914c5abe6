// What a call can fail with, besides the network itself (fetch's own TypeError).
import type { z } from 'zod';

/** The service answered with an error status; `detail` is its message (German, for people). */
export class FinanzamtApiError extends Error {
  override readonly name = 'FinanzamtApiError';

  constructor(
    readonly status: number,
    readonly detail: string,
    /** Path and query asked, without the origin. */
    readonly path: string,
  ) {
    super(`${status} for ${path}: ${detail}`);
  }
}

/** The service answered 2xx/304 with a body that is not what the interface describes. */
export class FinanzamtResponseError extends Error {
  override readonly name = 'FinanzamtResponseError';

  constructor(
    readonly status: number,
    readonly path: string,
    readonly issues: z.core.$ZodIssue[] | null,
    message: string,
  ) {
    super(`${status} for ${path}: ${message}`);
  }
}
