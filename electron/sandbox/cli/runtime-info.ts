// Parses `podman info` / `docker info` into the facts health reports and the engine needs.
import type { LocatedRuntime, RuntimeName } from './runtime-locator.js';

export interface RuntimeFacts {
  version: string;
  rootless: boolean;
  cgroupVersion: 1 | 2 | null;
  ociRuntime: string;
  storageDriver: string;
}

/** What the engine and health know of the runtime: where it is, its facts, and what Sandbar chose about it.
 * (Here, beside the facts, so the facts cache and the runtime share it without importing each other.) */
export interface RuntimeInfo extends LocatedRuntime, RuntimeFacts {
  /** Set when Sandbar had to force an OCI runtime (runc after crun's cgroup-hybrid failure). */
  ociRuntimeOverride?: string;
  ociRuntimeNote?: string;
  ulimits: { nofile: number; nproc: number } | null;
  availableOciRuntimes: string[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function cgroup(value: string): 1 | 2 | null {
  const digit = /([12])/.exec(value)?.[1];
  return digit === '1' ? 1 : digit === '2' ? 2 : null;
}

export function parsePodmanInfo(json: Json): RuntimeFacts {
  const host = obj(json.host);
  return {
    version: str(obj(json.version).Version),
    rootless: obj(host.security).rootless === true,
    cgroupVersion: cgroup(str(host.cgroupVersion)),
    ociRuntime: str(obj(host.ociRuntime).name),
    storageDriver: str(obj(json.store).graphDriverName),
  };
}

export function parseDockerInfo(json: Json): RuntimeFacts {
  const security = Array.isArray(json.SecurityOptions) ? json.SecurityOptions.map(str) : [];
  return {
    version: str(json.ServerVersion),
    rootless: security.some((s) => s.includes('name=rootless')),
    cgroupVersion: cgroup(str(json.CgroupVersion)),
    ociRuntime: str(json.DefaultRuntime),
    storageDriver: str(json.Driver),
  };
}

export function infoArgs(name: RuntimeName): string[] {
  return name === 'podman' ? ['info', '--format', 'json'] : ['info', '--format', '{{json .}}'];
}

export function parseInfo(name: RuntimeName, stdout: string): RuntimeFacts {
  const json = obj(JSON.parse(stdout));
  return name === 'podman' ? parsePodmanInfo(json) : parseDockerInfo(json);
}

/** crun cannot run on a cgroup v1/v2 hybrid host; runc can. */
export function isCrunHybridFailure(stderr: string): boolean {
  return /cgroups? in hybrid mode|hybrid mode (is )?not supported/i.test(stderr);
}
