// The one error type the panel sees from a call, whatever the transport: a code, a message, field messages.
import type { ApiError } from '../../shared/contract.js';
import type { ErrorCode } from '../../shared/errors.js';

/** The server's codes plus two only the client can see. */
export type ClientErrorCode = ErrorCode | 'unauthorized' | 'network';

export class ApiCallError extends Error {
  readonly code: ClientErrorCode;
  /** Field-level messages keyed by dotted path (`limits.memory`). */
  readonly fields: Record<string, string> | undefined;
  constructor(error: { code: ClientErrorCode; message: string; fields?: Record<string, string> | undefined }) {
    super(error.message);
    this.name = 'ApiCallError';
    this.code = error.code;
    this.fields = error.fields;
  }

  static from(error: ApiError): ApiCallError {
    return new ApiCallError(error);
  }
}

export const NOT_AUTHORISED_HELP = 'Open the link printed by `npm run serve`, or copy it from the tray.';

/** A sentence for a toast or an inline message, whatever was thrown. */
export function describeError(err: unknown): string {
  if (err instanceof ApiCallError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
