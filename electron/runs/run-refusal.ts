// Why a run is refused before anything runs, in the words every surface shows: MCP as an error result
// (`validation_error` for a `validation` refusal), the panel and the CLI as the error's message.
import { AppError } from '../../shared/errors.js';
import { MAX_PACKAGES, parseRequirement } from '../../shared/packages.js';

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

/** Requirements no surface may pass on (too many, or one that is not `name` / `name==version`), or null. The
 * words are MCP's, so `sandbar run --package` and Re-run say the same; a requirement reaches pip's command line. */
export function packagesRefusal(requirements: readonly string[]): string | null {
  if (requirements.length > MAX_PACKAGES) return `At most ${MAX_PACKAGES} packages per run.`;
  for (const text of requirements) {
    const parsed = parseRequirement(text);
    if ('error' in parsed) return `packages: ${parsed.error}`;
  }
  return null;
}
