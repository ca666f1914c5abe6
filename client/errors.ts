// What a call can fail with, besides the network itself (fetch's own TypeError).
import type { z } from 'zod';
import type { ErrorCode } from '../core/errors.ts';

/**
 * The service answered with an error status. Branch on `code` (stable, core/errors.ts); `detail` is its
 * message (German, for people). `code` is null for an answer from something in between (a gateway's page).
 */
export class FinanzamtApiError extends Error {
  override readonly name = 'FinanzamtApiError';
  readonly status: number;
  readonly detail: string;
  /** Path and query asked, without the origin, and without a tax number (`steuernummer=…`). */
  readonly path: string;
  readonly code: ErrorCode | null;

  constructor(status: number, detail: string, path: string, code: ErrorCode | null) {
    super(`${status} ${code ?? 'without code'} for ${path}: ${detail}`);
    this.status = status;
    this.detail = detail;
    this.path = path;
    this.code = code;
  }
}

/** The service answered 2xx/304 with a body that is not what the interface describes. */
export class FinanzamtResponseError extends Error {
  override readonly name = 'FinanzamtResponseError';
  readonly status: number;
  readonly path: string;
  readonly issues: z.core.$ZodIssue[] | null;

  constructor(status: number, path: string, issues: z.core.$ZodIssue[] | null, message: string) {
    super(`${status} for ${path}: ${message}`);
    this.status = status;
    this.path = path;
    this.issues = issues;
  }
}
