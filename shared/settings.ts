// Sandbar's settings: one zod schema for the settings file, the environment, the CLI flags and the panel.
// Every field carries a message a person can act on; `settingsIssueMessage` fills the rest (limits' types).
import { z } from 'zod';
import { TOOL_POLICIES } from './approvals.js';
import { FoldersSchema } from './folders.js';
import { EgressSchema, SecretsSchema } from './egress-settings.js';
import { ImageReferenceSchema } from './image-ref.js';
import { formatBytes, LimitsSchema } from './limits.js';
import { McpServersSchema } from './server-entry.js';
import { settingsIssueMessage } from './settings-errors.js';

export const OUTPUT_MODES = ['compact', 'toon'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export const SECCOMP_SETTINGS = ['sandbar', 'runtime-default'] as const;

export const DEFAULT_HTTP_PORT = 7337;

const seconds = (n: number) => (n === 1 ? '1 second' : `${n} seconds`);
const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);
const bytes = (n: number) => `${n} bytes (${formatBytes(n)})`;

/** A whole number in [min, max]; `shown` writes a bound with its unit ("300 seconds"). */
function wholeNumber(min: number, max: number, shown: (n: number) => string = String) {
  return z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${shown(min)}`)
    .max(max, `must be at most ${shown(max)}`);
}

const bool = () => z.boolean({ error: 'must be true or false' });

export const SettingsSchema = z.object({
  limits: LimitsSchema.default(LimitsSchema.parse({})),
  /** Any image with python3 (3.8+). Never pulled as a side effect of a run. */
  image: ImageReferenceSchema.default('python:3.14-slim'),
  /** podman, docker, a path to one, or kubernetes (pods in a cluster); null finds podman or docker. */
  runtime: z
    .string({ error: 'must be podman, docker or a path to one (null finds one)' })
    .trim()
    .min(1, 'must be podman, docker or a path to one (null finds one)')
    .refine((v) => !v.startsWith('-'), 'must be podman, docker or a path to one, not a flag')
    .nullable()
    .default(null),
  /** Containers always kept booted and waiting; 0 (with poolMax null or 0) turns the pool off. */
  poolSize: wholeNumber(0, 16).default(2),
  /**
   * The most the pool grows to while calls come at once (toward their recent peak; back to poolSize when
   * quiet). null: 10 (or poolSize if larger), none when poolSize is 0. At least poolSize.
   */
  poolMax: wholeNumber(0, 64).nullable().default(null),
  /** Runs at once; the rest wait in a FIFO queue. */
  concurrency: wholeNumber(1, 64).default(4),
  /** Runs waiting beyond this are refused at once ("busy"), so no caller can pile up unbounded work. */
  queueLimit: wholeNumber(0, 10_000).default(64),
  /** Host tool calls one run may have in flight; more wait inside the sandbox until one answers. */
  maxToolCallsInFlight: wholeNumber(1, 256).default(16),
  httpPort: z
    .number({ error: 'must be a port number from 0 to 65535' })
    .int('must be a port number from 0 to 65535')
    .min(0, 'must be a port number from 0 to 65535')
    .max(65_535, 'must be a port number from 0 to 65535')
    .default(DEFAULT_HTTP_PORT),
  outputMode: z.enum(OUTPUT_MODES, { error: 'must be compact or toon' }).default('compact'),
  /** Code larger than this is refused before anything starts. */
  maxCodeBytes: wholeNumber(1024, 16 * 1024 * 1024, bytes).default(256 * 1024),
  /** 'runtime-default' is weaker: the runtime's own seccomp profile instead of Sandbar's. */
  seccomp: z.enum(SECCOMP_SETTINGS, { error: 'must be sandbar or runtime-default' }).default('sandbar'),
  /** An OCI runtime to use (for example runsc for gVisor); null lets the container runtime choose. */
  ociRuntime: z
    .string({ error: 'must be an OCI runtime name or path' })
    .trim()
    .regex(/^[A-Za-z0-9._/][A-Za-z0-9._/-]*$/, 'must be an OCI runtime name or path')
    .nullable()
    .default(null),
  /** runtime "kubernetes": the kubeconfig file; null uses KUBECONFIG, ~/.kube/config or the in-cluster account. */
  kubeconfig: z
    .string({ error: 'must be a path to a kubeconfig file' })
    .trim()
    .min(1, 'must be a path to a kubeconfig file')
    .nullable()
    .default(null),
  /** runtime "kubernetes": where sandbox pods (and their deny-all NetworkPolicy) are made. */
  kubernetesNamespace: z
    .string({ error: 'must be a namespace name' })
    .trim()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a namespace name: lowercase letters, digits and -, at most 63')
    .default('sandbar'),
  /** runtime "kubernetes": a RuntimeClass for sandbox pods (gvisor, kata); null: the nodes' default. */
  kubernetesRuntimeClass: z
    .string({ error: 'must be a RuntimeClass name' })
    .trim()
    .regex(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, 'must be a RuntimeClass name: lowercase letters, digits, - and .')
    .nullable()
    .default(null),
  /** MCP servers added in Sandbar itself (same entry format as `mcpServers` in a config file). */
  mcpServers: McpServersSchema.default({}),
  /** allow (default) or deny per server; a denied server is invisible to the sandbox. */
  serverPolicies: z
    .record(z.string(), z.enum(['allow', 'deny'], { error: 'must be allow or deny' }), { error: 'must be an object of server names to allow or deny' })
    .default({}),
  /** Client configs whose servers are imported (opt-in): claude-desktop, claude-code, cursor, vscode, windsurf. */
  importClients: z.array(z.string({ error: 'must be a client name' }), { error: 'must be a list of client names' }).default([]),
  /** Let a config that launches Sandbar (or the reference bridge) through; off to avoid loops. */
  allowSelfServer: bool().default(false),
  serverStartTimeoutSec: wholeNumber(1, 300, seconds).default(15),
  /** History retention: runs older than this many days are deleted. */
  historyMaxAgeDays: wholeNumber(1, 3650, days).default(30),
  /** History retention: the oldest runs go once the recorded size passes this many MB. */
  historyMaxMB: wholeNumber(10, 100_000, (n) => `${n} MB`).default(500),
  toolCallTimeoutSec: wholeNumber(1, 3600, seconds).default(120),
  /** Per tool (`server/tool`) or server: allow, ask (a person decides each call) or deny; unset: hints decide. */
  toolPolicies: z
    .record(
      z.string().regex(/^[^/\s]+(\/[^/\s]+)?$/, 'keys must be a server name or server/tool'),
      z.enum(TOOL_POLICIES, { error: 'must be allow, ask or deny' }),
      { error: 'must be an object of server or server/tool names to allow, ask or deny' },
    )
    .default({}),
  /** A question about a tool call that gets no answer in this time is denied. */
  approvalTimeoutSec: wholeNumber(5, 3600, seconds).default(120),
  /** A PEP 503 simple index for `packages`; Sandbar's proxy asks only it (and the file links it lists). */
  packageIndex: z
    .string({ error: 'must be the http(s) URL of a simple package index' })
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
      } catch {
        return false;
      }
    }, 'must be the http(s) URL of a simple package index, without credentials, query or fragment')
    .default('https://pypi.org/simple/'),
  /** Installed package layers and their wheels; the least recently used go past this. */
  packageCacheMB: wholeNumber(64, 1_000_000, (n) => `${n} MB`).default(2048),
  /** One figure or displayed image larger than this is refused (with the reason in the result). */
  imageCapBytes: wholeNumber(10_000, 8 * 1024 * 1024, bytes).default(350_000),
  /** Files under /workspace/out a run may hand back, and their total size. */
  artifactMaxFiles: wholeNumber(0, 100).default(20),
  artifactMaxBytes: wholeNumber(0, 256 * 1024 * 1024, bytes).default(20 * 1024 * 1024),
  /** Modules imported in each warm container before code arrives; null: whichever of numpy, pandas and matplotlib.pyplot the image has. */
  preload: z
    .array(
      z.string({ error: 'must be a module name' }).regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, 'must be a module name such as pandas or matplotlib.pyplot'),
      { error: 'must be a list of module names (null: the default)' },
    )
    .max(32, 'must list at most 32 modules')
    .nullable()
    .default(null),
  /** A session (run_python `session`) with no call for this long ends, its sandbox removed. */
  sessionIdleSec: wholeNumber(10, 24 * 3600, seconds).default(600),
  /** A session ends this long after it opened, however busy. */
  sessionMaxSec: wholeNumber(60, 7 * 24 * 3600, seconds).default(3600),
  /** Sessions live at once (each holds a paused sandbox); one more is refused, listing the caller's own. 0 turns sessions off. */
  maxSessions: wholeNumber(0, 16).default(2),
  /**
   * The user's folders, each at /mnt/<name> in every sandbox: read-only unless `writable`, never executable.
   * Host-affecting: set in the settings file or through the desktop's confirmation, never over HTTP.
   */
  folders: FoldersSchema.default([]),
  /** Hosts sandboxed code may reach through the host's proxy (shared/egress.ts); empty allow: no way out. */
  egress: EgressSchema.default({ allow: [], deny: [] }),
  /** Credentials the host adds to requests for their hosts; the sandbox sees a placeholder. Host-affecting. */
  secrets: SecretsSchema.default({}),
  /** A PEM file of CAs trusted for upstreams besides the system's (a company proxy, a test CA). Host-affecting. */
  egressCaFile: z
    .string({ error: 'must be an absolute path to a PEM file (null: the system CAs only)' })
    .trim()
    .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path to a PEM file (null: the system CAs only)')
    .nullable()
    .default(null),
  /** Bytes one run may send and receive through the egress proxy, both ways together. */
  egressMaxBytes: wholeNumber(1024 * 1024, 16 * 1024 * 1024 * 1024, bytes).default(256 * 1024 * 1024),
  /** Connections one run may open through the egress proxy (in all; at most 32 at once). */
  egressMaxConnections: wholeNumber(1, 10_000).default(256),
  /** Checkpoints a session keeps (the state right after each of its last calls, for `<id>@<n>`); 0 keeps none. */
  sessionCheckpoints: wholeNumber(0, 20).default(5),
  /** Start the desktop app when the user logs in (the desktop shell applies it; the CLI ignores it). */
  launchAtLogin: bool().default(false),
}).superRefine((s, ctx) => {
  if (s.poolMax !== null && s.poolMax < s.poolSize) {
    ctx.addIssue({ code: 'custom', path: ['poolMax'], message: `must be at least poolSize (${s.poolSize}): the pool never keeps fewer than poolSize ready` });
  }
});

export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/** Validates with human messages everywhere (the schema's own, else `settingsIssueMessage`). */
export function parseSettings(value: unknown): ReturnType<typeof SettingsSchema.safeParse> {
  return SettingsSchema.safeParse(value, { error: settingsIssueMessage });
}
