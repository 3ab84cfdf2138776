// Why a run is refused before anything runs, in the words every surface shows: MCP as an error result
// (`validation_error` for a `validation` refusal), the panel and the CLI as the error's message.
import { AppError } from '../../shared/errors.js';

export class RunRefused extends AppError {
  constructor(
    /** `validation`: the request itself is unusable; `refused`: it is fine but cannot run here and now. */
    readonly kind: 'validation' | 'refused',
    message: string,
    options?: { cause?: unknown },
  ) {
    super('invalid_request', message, options);
    this.name = 'RunRefused';
  }
}

/** Code past the configured size (`maxCodeBytes`, default 256 KiB), or null. */
export function codeSizeRefusal(code: string, maxCodeBytes: number): string | null {
  const bytes = Buffer.byteLength(code);
  if (bytes <= maxCodeBytes) return null;
  return `Code is ${Math.ceil(bytes / 1024)} KiB; the limit is ${Math.floor(maxCodeBytes / 1024)} KiB. Send a shorter script.`;
}
