// Reads the settings file. A file that is not JSON is moved aside (never deleted: nothing is lost) and
// the defaults are used; a valid file with an invalid value is an error that names the value.
import { readFileSync, renameSync } from 'node:fs';
import { AppError } from '../../shared/errors.js';

export interface SettingsFileContents {
  values: Record<string, unknown>;
  /** Set when the file was unreadable as settings and was moved aside. */
  warning?: string;
}

export function readSettingsFile(file: string, now: Date = new Date()): SettingsFileContents {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { values: {} };
    throw new AppError('invalid_config', `Cannot read the settings file ${file}: ${code ?? String(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { values: parsed as Record<string, unknown> };
  const aside = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  return { values: {}, warning: `The settings file was not a JSON object of settings; it was moved to ${aside} and the defaults are in use.` };
}
