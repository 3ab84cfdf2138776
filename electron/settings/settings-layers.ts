// Settings come in layers, lowest first: defaults < settings file < environment < command-line flags.
// Each layer remembers where every value came from, so an invalid one is reported by its own name
// (`MCP_BRIDGE_MEMORY`, `settings.json: limits.memory`, `--port`).
import { AppError } from '../../shared/errors.js';
import { DEFAULT_LIMITS } from '../../shared/limits.js';
import { parseSettings, type Settings } from '../../shared/settings.js';

export interface SettingsLayer {
  /** Nested partial settings. */
  values: Record<string, unknown>;
  /** Dotted path (`limits.memory`) → how a person set it (`MCP_BRIDGE_MEMORY`). */
  labels: Map<string, string>;
  /** Dotted path → the value as the person typed it, where that differs from the parsed one. */
  typed?: Map<string, unknown>;
}

type Kind = 'int' | 'number' | 'string' | 'outputMode' | 'bool';

/** Environment variables, Sandbar's own and the reference bridge's aliases (first one set wins). */
const ENV_VARS: [string[], string, Kind][] = [
  [['MCP_BRIDGE_TIMEOUT'], 'limits.timeoutSec', 'int'],
  [['MCP_BRIDGE_MAX_TIMEOUT'], 'limits.maxTimeoutSec', 'int'],
  [['MCP_BRIDGE_MEMORY'], 'limits.memory', 'string'],
  [['MCP_BRIDGE_PIDS'], 'limits.pids', 'int'],
  [['MCP_BRIDGE_CPUS'], 'limits.cpus', 'number'],
  [['MCP_BRIDGE_CONTAINER_USER'], 'limits.user', 'string'],
  [['SANDBAR_IMAGE', 'MCP_BRIDGE_IMAGE'], 'image', 'string'],
  [['SANDBAR_RUNTIME', 'MCP_BRIDGE_RUNTIME'], 'runtime', 'string'],
  [['MCP_BRIDGE_OUTPUT_MODE'], 'outputMode', 'outputMode'],
  [['SANDBAR_SECCOMP'], 'seccomp', 'string'],
  [['SANDBAR_OCI_RUNTIME'], 'ociRuntime', 'string'],
  [['SANDBAR_QUEUE_LIMIT'], 'queueLimit', 'int'],
  [['SANDBAR_PACKAGE_INDEX'], 'packageIndex', 'string'],
  [['MCP_BRIDGE_ALLOW_SELF_SERVER'], 'allowSelfServer', 'bool'],
];

function invalid(label: string, value: unknown, why: string): AppError {
  const shown = label.startsWith('--') ? ` ${String(value)}` : `=${JSON.stringify(value)}`;
  return new AppError('invalid_config', `Invalid ${label}${shown}: ${why}`);
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
}

function getPath(source: Record<string, unknown>, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), source);
}

export function envLayer(env: NodeJS.ProcessEnv): SettingsLayer {
  const layer: SettingsLayer = { values: {}, labels: new Map(), typed: new Map() };
  for (const [names, dotted, kind] of ENV_VARS) {
    const name = names.find((n) => env[n]?.trim());
    if (!name) continue;
    const raw = env[name]!.trim();
    let value: unknown = raw;
    if (kind === 'int' || kind === 'number') {
      value = Number(raw);
      if (!Number.isFinite(value) || (kind === 'int' && !Number.isInteger(value))) {
        throw invalid(name, raw, kind === 'int' ? 'must be a whole number' : 'must be a number');
      }
    } else if (kind === 'bool') {
      // The reference's spelling: 1, true or yes turn it on.
      value = ['1', 'true', 'yes'].includes(raw.toLowerCase());
    } else if (kind === 'outputMode') {
      // The reference renders TOON for any value but "compact"; `json` was its fallback's name.
      value = raw.toLowerCase() === 'json' ? 'toon' : raw.toLowerCase();
    }
    setPath(layer.values, dotted, value);
    layer.labels.set(dotted, name);
    layer.typed!.set(dotted, raw);
  }
  return layer;
}

/** A parsed settings file; every value is labelled `<file>: <path>`. */
export function fileLayer(values: Record<string, unknown>, fileLabel: string): SettingsLayer {
  const labels = new Map<string, string>();
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const dotted = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object' && !Array.isArray(value)) walk(value as Record<string, unknown>, dotted);
      else labels.set(dotted, `${fileLabel}: ${dotted}`);
    }
  };
  walk(values, '');
  return { values, labels };
}

export function flagLayer(flags: Record<string, { path: string; value: unknown } | undefined>): SettingsLayer {
  const layer: SettingsLayer = { values: {}, labels: new Map() };
  for (const [flag, entry] of Object.entries(flags)) {
    if (!entry || entry.value === undefined) continue;
    setPath(layer.values, entry.path, entry.value);
    layer.labels.set(entry.path, flag);
  }
  return layer;
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && prev && typeof prev === 'object' && !Array.isArray(prev)
        ? merge(prev as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

/** The layers' values merged, lowest first (nested objects merged, anything else replaced); not validated. */
export function mergeLayers(layers: SettingsLayer[]): Record<string, unknown> {
  return layers.reduce<Record<string, unknown>>((acc, layer) => merge(acc, layer.values), {});
}

/** Merges the layers (lowest first) over the defaults and validates; errors name the source of the value. */
export function resolveSettings(layers: SettingsLayer[]): Settings {
  const merged = mergeLayers(layers);
  // The reference clamps a default timeout above the maximum rather than refusing it. Into a copy:
  // `merged.limits` may be a layer's own object, which belongs to the caller.
  const limits = merged.limits as Record<string, unknown> | undefined;
  if (limits && typeof limits === 'object') {
    const timeout = typeof limits.timeoutSec === 'number' ? limits.timeoutSec : DEFAULT_LIMITS.timeoutSec;
    const max = typeof limits.maxTimeoutSec === 'number' ? limits.maxTimeoutSec : DEFAULT_LIMITS.maxTimeoutSec;
    if (timeout > max) merged.limits = { ...limits, timeoutSec: max };
  }
  const parsed = parseSettings(merged);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const dotted = issue.path.map(String).join('.');
  const source = [...layers].reverse().find((l) => l.labels.has(dotted));
  const label = source?.labels.get(dotted) ?? `setting ${dotted}`;
  const typed = source?.typed?.has(dotted) ? source.typed.get(dotted) : getPath(merged, dotted);
  throw invalid(label, typed, issue.message);
}
