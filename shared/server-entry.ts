// A server entry added in Sandbar itself (`mcpServers` in settings): the config-file format, strictly.
// Unknown keys and non-string values are refused, so what the panel shows is exactly what would run.
import { z } from 'zod';

const text = (what: string, max: number) => z.string({ error: `must be ${what}` }).max(max, `must be at most ${max} characters`);
const stringMap = (what: string) =>
  z.record(z.string().max(256, 'names are at most 256 characters'), text('a string', 32 * 1024), { error: `must be an object of ${what}` });

export const ServerEntrySchema = z
  .object({
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp'], { error: 'must be stdio or http' }).optional(),
    command: text('a command', 4096).min(1, 'must be a command').optional(),
    args: z.array(text('a string', 32 * 1024), { error: 'must be a list of strings' }).max(256, 'must be at most 256 arguments').optional(),
    env: stringMap('variables to strings').optional(),
    cwd: text('a folder', 4096).optional(),
    url: text('a URL', 4096).optional(),
    serverUrl: text('a URL', 4096).optional(),
    headers: stringMap('header names to strings').optional(),
    disabled: z.boolean({ error: 'must be true or false' }).optional(),
    description: text('a description', 4096).optional(),
  })
  .strict()
  .refine((e) => e.command !== undefined || e.url !== undefined || e.serverUrl !== undefined, 'needs a "command" or a "url"');

export type ServerEntry = z.infer<typeof ServerEntrySchema>;

/**
 * Server names reach aliases in the sandbox, approval questions, the tray and log lines: a safe charset
 * only, so no name can carry escapes, spaces or look-alike characters.
 */
export const SERVER_NAME_RULE = '1 to 64 characters of A-Z, a-z, 0-9, "_", "." and "-"';
const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function isServerName(name: unknown): boolean {
  return typeof name === 'string' && SERVER_NAME.test(name);
}

const SERVER_NAME_ERROR = `server names must be ${SERVER_NAME_RULE}`;

export const McpServersSchema = z.record(z.string().refine(isServerName, SERVER_NAME_ERROR), ServerEntrySchema, {
  // The record's own message is for a value that is not an object; a bad key keeps the name rule.
  error: (issue) => (issue.code === 'invalid_key' ? SERVER_NAME_ERROR : 'must be an object of server entries by name'),
});
