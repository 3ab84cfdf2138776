// Plausible data for the dev-only fake API (`?fake`): enough to look at every view without a server.
import type { ClientView, DiffHunk, EndpointInfo, FinishedExecution, RunningExecution, ServerView, SettingsView } from '../../shared/contract.js';
import type { ExecutionSummary } from '../../shared/execution.js';
import type { HealthReport } from '../../shared/health.js';
import { DEFAULT_LIMITS } from '../../shared/limits.js';
import type { ToolInfo } from '../../shared/proxy.js';
import type { SessionInfo, SessionRef } from '../../shared/sessions.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { FAKE_EGRESS, FAKE_EGRESS_DROPPED } from './fake-egress.js';

const MIN = 60_000;

export function fakeRunning(now: number): RunningExecution[] {
  return [
    {
      id: 'r-7f3a9c21e4',
      code: 'import pandas as pd\nfrom mcp.servers.github import list_issues\n\nissues = await list_issues(repo="acme/api", state="open")\ndf = pd.DataFrame(issues)\nprint(df.groupby("label").size().sort_values(ascending=False).head(10))\nfor i in range(100):\n    print(i)',
      servers: ['github'],
      client: { name: 'claude-code', version: '2.1.4', transport: 'http' },
      timeoutSec: 120,
      queuedAt: now - 9_000,
      startedAt: now - 8_200,
      containerName: 'sandbar-r-7f3a9c21e4',
      memoryBytes: 96 * 1024 ** 2,
    },
    {
      id: 'r-02bd77e0aa',
      code: 'import numpy as np\nx = np.zeros((20000, 20000))\nprint(x.sum())',
      servers: [],
      client: { name: 'cursor', version: '1.7.2', transport: 'http' },
      timeoutSec: 30,
      queuedAt: now - 27_000,
      startedAt: now - 26_500,
      containerName: 'sandbar-r-02bd77e0aa',
      memoryBytes: 471 * 1024 ** 2,
    },
  ];
}

const SESSION_A = '3f2a9c0d7be14e21a6c85f09d3b7e412';
const SESSION_B = 'c07e51aa2d9f4b8e9e3310f6a4c2d8b5';

/** Two open sessions: one paused between calls, one in a call. */
export function fakeSessions(now: number): SessionInfo[] {
  return [
    {
      id: SESSION_A,
      client: { name: 'claude-code', version: '2.1.4' },
      calls: 3,
      openedAt: now - 11 * MIN,
      lastCallAt: now - 40_000,
      idleExpiresAt: now - 40_000 + 10 * MIN,
      maxExpiresAt: now - 11 * MIN + 60 * MIN,
      busy: false,
      memoryBytes: 212 * 1024 ** 2,
      containerName: `sandbar-s-${SESSION_A.slice(0, 12)}`,
      checkpoints: [1, 2, 3],
    },
    {
      id: SESSION_B,
      client: { name: 'cursor', version: '1.7.2' },
      calls: 1,
      openedAt: now - 25_000,
      lastCallAt: now - 25_000,
      idleExpiresAt: now - 25_000 + 10 * MIN,
      maxExpiresAt: now - 25_000 + 60 * MIN,
      busy: true,
      memoryBytes: null,
      containerName: `sandbar-s-${SESSION_B.slice(0, 12)}`,
      checkpoints: [],
    },
  ];
}

/** Which of the recent runs were calls in session A (oldest first: call 1 opened it). */
export const FAKE_SESSION_CALLS: Record<string, SessionRef> = {
  'f-06': { id: SESSION_A, call: 1 },
  'f-05': { id: SESSION_A, call: 2 },
  'f-01': { id: SESSION_A, call: 3 },
};

export function fakeQueued(now: number): ExecutionSummary[] {
  return [{ id: 'q-55c1d2', code: 'print(sum(range(10**7)))', servers: [], client: { name: 'claude-desktop', version: '0.14.1' }, timeoutSec: 30, queuedAt: now - 2_100 }];
}

function finished(id: string, ago: number, exitReason: FinishedExecution['exitReason'], extra: Partial<FinishedExecution>, now: number): FinishedExecution {
  const finishedAt = now - ago;
  const durationMs = extra.durationMs ?? 1_840;
  return {
    id,
    exitReason,
    exitCode: exitReason === 'success' ? 0 : 1,
    stdoutTruncated: false,
    stderrTruncated: false,
    timeoutSec: 30,
    limits: DEFAULT_LIMITS,
    queuedAt: finishedAt - durationMs - 300,
    startedAt: finishedAt - durationMs,
    finishedAt,
    durationMs,
    code: 'print("hello")',
    servers: [],
    client: { name: 'claude-code', version: '2.1.4' },
    ...extra,
  };
}

/** A small chart (96×64 PNG) standing in for a run's figure. */
export const FAKE_FIGURE_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAGAAAABACAIAAABqVuVZAAABU0lEQVR42u3bWw6CMBCFYXbknlytK9CV+IwkJobQdjrIrZ3/NDxipN/DzEkHhlHLXIMIBCQgAQlIQAISkIC0BLR23e5PARVpvpeAijQCquuoBlk0KtIVGjrQ4/Ve0KQ6XKCUZvKaLgEVaQSU0ZnT0IHSWpPqQIFKZVhAo92k0ECe/o0D+m2ySsMFSpuUBxQBVOrfAlod/EBANg0aKNuknBuOD7Qx+EUGsvs3Dmj+3J5oAwXyZGIoULZJbd9wEKDjgl/3QHa0QQNVUx8X6Mzg1xmQ0aRwQItHqfZvNNCFwa91IGfqIwI5J5lEIOPghg5UPdNCA7UZ/JoAylZiHFD2D7ZPMsMC9RL8LgBynmkRgfzHfUSgToPfGUCHTjL7BjphktkrkGfOGxyo9INSJRZQzOC3G9Ber7AFBLp2ktk0ECH4/Qnk/3YBB3T0K2yhgAgbXnv/B089QzwipO4KAAAAAElFTkSuQmCC';
export const FAKE_CSV = 'region,sales\nnorth,3\nsouth,5\n';

/** The fake's stored artifacts by run and name, as `executions.artifact` answers them. */
export function fakeArtifact(runId: string, name: string): { name: string; mimeType: string; size: number; data: string } | null {
  if (runId !== 'f-01') return null;
  if (name === 'figure-1.png') return { name, mimeType: 'image/png', size: 396, data: FAKE_FIGURE_PNG_BASE64 };
  if (name === 'out/summary.csv') return { name, mimeType: 'text/csv', size: FAKE_CSV.length, data: btoa(FAKE_CSV) };
  return null;
}

export function fakeRecent(now: number): FinishedExecution[] {
  return [
    finished(
      'f-01',
      40_000,
      'success',
      {
        code: 'import statistics\nimport matplotlib.pyplot as plt\nprint(statistics.mean([3, 5, 8]))\nplt.plot([3, 5, 8]); plt.title("Mean"); plt.show()',
        durationMs: 412,
        artifacts: [
          { name: 'figure-1.png', mimeType: 'image/png', size: 396, source: 'figure', width: 96, height: 64, title: 'Mean' },
          { name: 'out/summary.csv', mimeType: 'text/csv', size: FAKE_CSV.length, source: 'file' },
        ],
      },
      now,
    ),
    finished('f-02', 2 * MIN, 'memory', { exitCode: 137, code: 'blob = bytearray(2 * 1024**3)', durationMs: 3_310 }, now),
    finished('f-03', 4 * MIN, 'timeout', { exitCode: null, code: 'while True:\n    pass', durationMs: 30_000 }, now),
    finished('f-04', 7 * MIN, 'error', { exitCode: 1, code: 'import requests\nrequests.get("https://api.example.com/v1/items")', client: { name: 'cursor', version: '1.7.2' }, egress: FAKE_EGRESS, egressDropped: FAKE_EGRESS_DROPPED }, now),
    finished('f-05', 11 * MIN, 'cancelled', { exitCode: null, code: 'import time\ntime.sleep(600)' }, now),
    finished('f-06', 15 * MIN, 'output_limit', { code: 'while True: print("x" * 80)', durationMs: 2_050 }, now),
  ];
}

export function fakeSettingsView(): SettingsView {
  return {
    settings: {
      ...DEFAULT_SETTINGS,
      limits: { ...DEFAULT_LIMITS },
      egress: { allow: ['api.example.com:443', '*.example.org'], deny: ['evil.example.net'] },
      // As the main process shows a secret: a typed-in value is masked.
      secrets: { API_KEY: { value: '(hidden)', hosts: ['api.example.com'], header: 'Authorization: Bearer {secret}' } },
    },
    defaults: DEFAULT_SETTINGS,
    locked: [{ path: 'image', source: 'SANDBAR_IMAGE' }],
    file: '~/.config/sandbar/settings.json',
  };
}

export function fakeHealth(broken: boolean, now: number): HealthReport {
  return {
    ok: !broken,
    checkedAt: now - 3 * MIN,
    probedAt: now - 3 * MIN,
    runtime: {
      name: 'podman',
      path: '/usr/bin/podman',
      version: '4.3.1',
      rootless: broken,
      cgroupVersion: broken ? 1 : 2,
      ociRuntime: 'runc',
      storageDriver: 'overlay',
      ociRuntimeNote: 'crun failed here ("cgroups in hybrid mode not supported"); using runc',
      availableOciRuntimes: ['runc', 'crun'],
    },
    image: { name: 'python:3.14-slim', present: !broken },
    seccomp: 'sandbar',
    enforced: { memory: !broken, pids: true, network: true, readOnlyRoot: true, capabilities: true, seccomp: true },
    checks: [
      { id: 'runtime', label: 'Container runtime', status: 'ok', detail: 'podman 4.3.1 at /usr/bin/podman' },
      broken
        ? { id: 'memory', label: 'Memory limit enforced', status: 'fail', detail: 'A 600 MB allocation succeeded under --memory 512m: rootless Podman on cgroup v1 ignores resource limits.', hint: 'Switch the host to cgroup v2 (systemd.unified_cgroup_hierarchy=1) or run Podman as root.' }
        : { id: 'memory', label: 'Memory limit enforced', status: 'ok', detail: 'The probe was killed at 512m (exit 137).' },
      { id: 'pids', label: 'Process limit enforced', status: 'ok', detail: 'fork() failed after 128 processes.' },
      { id: 'network', label: 'No network', status: 'ok', detail: 'Opening a socket failed: Network is unreachable.' },
      { id: 'readonly', label: 'Read-only root', status: 'ok', detail: 'Writing to / failed: Read-only file system.' },
      { id: 'oci', label: 'OCI runtime', status: 'warn', detail: 'crun fails on this host; Sandbar uses runc instead.', hint: 'Nothing to do unless you prefer crun: then switch the host to cgroup v2.' },
      broken
        ? { id: 'image', label: 'Image present', status: 'fail', detail: 'python:3.14-slim is not on this machine.', hint: 'Pull it below, or set another image in Limits.' }
        : { id: 'image', label: 'Image present', status: 'ok', detail: 'python:3.14-slim (Python 3.14.0)' },
    ],
  };
}

export function fakeServers(): ServerView[] {
  return [
    { name: 'github', source: '~/MCPs/github.json', transport: 'stdio', description: 'Issues, pull requests and code search on GitHub.', policy: 'allow', state: 'ready', toolCount: 26, lastError: null },
    { name: 'filesystem', source: '~/MCPs/filesystem.json', transport: 'stdio', description: 'Read and write files under ~/projects.', policy: 'allow', state: 'starting', toolCount: null, lastError: null },
    { name: 'slack', source: '~/Library/Application Support/Claude/claude_desktop_config.json', transport: 'stdio', description: '', policy: 'allow', state: 'crashed', toolCount: 8, lastError: 'exited with code 1: Error: SLACK_BOT_TOKEN is not set' },
    { name: 'linear', source: 'settings', transport: 'http', description: 'Linear issues over Streamable HTTP.', policy: 'deny', state: 'stopped', toolCount: null, lastError: null },
  ];
}

export const FAKE_TOOLS: ToolInfo[] = [
  { name: 'list_issues', description: 'List issues of a repository, newest first.', inputSchema: { type: 'object', properties: { repo: { type: 'string' }, state: { enum: ['open', 'closed', 'all'] } }, required: ['repo'] } },
  { name: 'create_issue', title: 'Create an issue', description: 'Open a new issue with a title and body.', inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } } } },
  { name: 'search_code', description: 'Search code across repositories with GitHub search syntax.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
];

export function fakeClients(): ClientView[] {
  return [
    { id: 'claude-desktop', label: 'Claude Desktop', file: '~/.config/Claude/claude_desktop_config.json', exists: true, installed: true, configured: 'no', transport: 'stdio', error: null },
    { id: 'claude-code', label: 'Claude Code', file: '~/.claude.json', exists: true, installed: true, configured: 'yes', transport: 'http', error: null },
    { id: 'cursor', label: 'Cursor', file: '~/.cursor/mcp.json', exists: true, installed: true, configured: 'stale', transport: 'http', error: null },
    { id: 'vscode', label: 'VS Code', file: '~/.config/Code/User/mcp.json', exists: false, installed: true, configured: 'no', transport: 'http', error: null },
    { id: 'windsurf', label: 'Windsurf', file: '~/.codeium/windsurf/mcp_config.json', exists: false, installed: false, configured: 'no', transport: 'http', error: null },
  ];
}

/** A preview's hunks, as the server sends them (tokens masked). */
export const FAKE_DIFF: DiffHunk[] = [
  {
    oldStart: 1,
    oldLines: 7,
    newStart: 1,
    newLines: 12,
    lines: [
      " {",
      "   \"mcpServers\": {",
      "     \"github\": {",
      "       \"command\": \"npx\",",
      "       \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"]",
      "-    }",
      "+    },",
      "+    \"sandbar\": {",
      "+      \"command\": \"/opt/Sandbar/sandbar\",",
      "+      \"args\": [\"--stdio\"],",
      "+      \"env\": { \"SANDBAR_HOME\": \"~/.config/sandbar\" }",
      "+    }",
      "   }",
      " }",
    ],
  },
];

export const FAKE_SUMMARY = 'Claude Desktop will start /opt/Sandbar/sandbar --stdio with SANDBAR_HOME=~/.config/sandbar, so it joins this Sandbar (the same engine, history and servers) instead of starting one of its own.';

export const FAKE_ENDPOINT: EndpointInfo = { url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '~/.config/sandbar/token', panelTokenFile: '~/.config/sandbar/panel-token', sessions: 2 };

export const FAKE_OUTPUT_LINES = [
  'label\nbug            41\nenhancement    23\ndocs            9\n',
  'fetched page 2 of issues\n',
  'warning: 3 issues have no label\n',
];
