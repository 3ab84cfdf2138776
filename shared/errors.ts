// Errors carry a code (for programs) and a message (for people); no stack traces reach users.
export const ERROR_CODES = [
  'runtime_not_found',
  'runtime_failed',
  'image_missing',
  'invalid_config',
  'invalid_request',
  /** The caller's credential or channel may not do this (host-executing settings over HTTP). */
  'forbidden',
  'cancelled',
  'engine_stopped',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Field-level messages keyed by dotted path (`limits.memory`): an invalid settings update, for example. */
  readonly fields: Record<string, string> | undefined;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; fields?: Record<string, string> }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.fields = options?.fields;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
