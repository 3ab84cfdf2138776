// Sandbar's settings: one zod schema for the settings file, the environment, the CLI flags and the panel.
import { z } from 'zod';
import { LimitsSchema } from './limits.js';

export const OUTPUT_MODES = ['compact', 'toon'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export const SECCOMP_SETTINGS = ['sandbar', 'runtime-default'] as const;

export const DEFAULT_HTTP_PORT = 7337;

export const SettingsSchema = z.object({
  limits: LimitsSchema.default(LimitsSchema.parse({})),
  /** Any image with python3 (3.8+). Never pulled as a side effect of a run. */
  image: z.string().trim().min(1, 'must name an image').default('python:3.14-slim'),
  /** podman, docker or a path; null finds one (podman first). */
  runtime: z.string().trim().min(1).nullable().default(null),
  /** Containers kept booted and waiting; 0 turns the pool off. */
  poolSize: z.number().int().min(0).max(16).default(2),
  /** Runs at once; the rest wait in a FIFO queue. */
  concurrency: z.number().int().min(1).max(64).default(4),
  httpPort: z.number().int().min(0).max(65_535).default(DEFAULT_HTTP_PORT),
  outputMode: z.enum(OUTPUT_MODES).default('compact'),
  /** Code larger than this is refused before anything starts. */
  maxCodeBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(256 * 1024),
  /** 'runtime-default' is weaker: the runtime's own seccomp profile instead of Sandbar's. */
  seccomp: z.enum(SECCOMP_SETTINGS).default('sandbar'),
  /** An OCI runtime to use (for example runsc for gVisor); null lets the container runtime choose. */
  ociRuntime: z.string().trim().regex(/^[A-Za-z0-9._/-]+$/, 'must be an OCI runtime name or path').nullable().default(null),
  /** MCP servers added in Sandbar itself (same entry format as `mcpServers` in a config file). */
  mcpServers: z.record(z.string(), z.unknown()).default({}),
  /** allow (default) or deny per server; a denied server is invisible to the sandbox. */
  serverPolicies: z.record(z.string(), z.enum(['allow', 'deny'])).default({}),
  /** Client configs whose servers are imported (opt-in): claude-desktop, claude-code, cursor, vscode, windsurf. */
  importClients: z.array(z.string()).default([]),
  /** Let a config that launches Sandbar (or the reference bridge) through; off to avoid loops. */
  allowSelfServer: z.boolean().default(false),
  serverStartTimeoutSec: z.number().int().min(1, 'must be at least 1 second').max(300, 'must be at most 300 seconds').default(15),
  /** History retention: runs older than this many days are deleted. */
  historyMaxAgeDays: z.number().int().min(1, 'must be at least 1 day').max(3650, 'must be at most 3650 days').default(30),
  /** History retention: the oldest runs go once the recorded size passes this many MB. */
  historyMaxMB: z.number().int().min(10, 'must be at least 10 MB').max(100_000, 'must be at most 100000 MB').default(500),
  toolCallTimeoutSec: z.number().int().min(1, 'must be at least 1 second').max(3600, 'must be at most 3600 seconds').default(120),
});

export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
