// What a call can fail with, besides the network itself (fetch's own TypeError).
import type { z } from 'zod';
import type { ErrorCode } from '../core/errors.ts';

/**
 * The service answered with an error status. Branch on `code` (stable, build/core/errors.ts); `detail` is its
 * message (German, for people). `code` is null for an answer from something in between (a gateway's page).
 */
export class FinanzamtApiError extends Error {
  override readonly name = 'FinanzamtApiError';

  constructor(
    readonly status: number,
    readonly detail: string,
    /** Path and query asked, without the origin. */
    readonly path: string,
    readonly code: ErrorCode | null,
  ) {
    super(`${status} ${code ?? 'without code'} for ${path}: ${detail}`);
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
