// One egress proxy per run, made from the settings in force when the run starts (issue 26). The rules, the
// per-run bounds, the secrets' real values (read from settingsService.get(), never from the masked copy a
// settings-change listener gets; an `env` or `file` secret is read now, on the host) and the upstream CAs
// (the system's plus `egressCaFile`). The instance's CA is loaded once from Sandbar's private home (its key
// 0600 there). With `egress.allow` empty there is no proxy: the run gets nothing and the sandbox no way out.
import { readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import tls from 'node:tls';
import type { EgressRecord } from '../../shared/egress-audit.js';
import type { EgressSettings, SecretSettings } from '../../shared/egress-settings.js';
import { tunnelLimits, type RunEgress } from '../sandbox/run/egress-tunnel.js';
import { EgressBudget } from './egress-budget.js';
import { EgressCa } from './egress-ca.js';
import { EgressPolicy, type Resolver } from './egress-policy.js';
import { EgressProxy } from './egress-proxy.js';
import { placeholderEnv, resolveSecrets } from './egress-secrets.js';

/** The settings a run's egress is made from (the real ones: secrets unmasked). */
export interface EgressRunSettings {
  egress: EgressSettings;
  secrets: SecretSettings;
  egressCaFile?: string | null | undefined;
  egressMaxBytes: number;
  egressMaxConnections: number;
}

export interface EgressRunsOptions {
  /** Sandbar's private home: the instance's CA lives there. */
  home: string;
  settings: () => EgressRunSettings;
  /** Sandbar's own environment, for `env` secrets. */
  env: NodeJS.ProcessEnv;
  readFile?: (path: string) => string;
  /** Resolves a name on the host, once per connection (default: the system resolver, every address). */
  resolve?: Resolver;
  /** Idle time before a connection is closed (default EGRESS_IDLE_MS). */
  idleMs?: number;
}

const systemResolve: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export class EgressRuns {
  #ca: Promise<EgressCa> | undefined;
  readonly #readFile: (path: string) => string;

  constructor(private readonly options: EgressRunsOptions) {
    this.#readFile = options.readFile ?? ((p) => readFileSync(p, 'utf8'));
  }

  /** The instance's CA (made in the home the first time). */
  ca(): Promise<EgressCa> {
    this.#ca ??= EgressCa.loadOrCreate(this.options.home);
    this.#ca.catch(() => (this.#ca = undefined));
    return this.#ca;
  }

  /** A sentence for each secret that cannot be used now (variable unset, file unreadable, empty): for Health, never a value. */
  secretProblems(): string[] {
    return resolveSecrets(this.options.settings().secrets, { env: this.options.env, readFile: this.#readFile }).problems;
  }

  /** Whether runs started now get a proxy (egress.allow is not empty). */
  get enabled(): boolean {
    return this.options.settings().egress.allow.length > 0;
  }

  /**
   * This run's egress, or null when egress is off. Throws, in words, when it is on but cannot be set up
   * (the CA or `egressCaFile` unreadable): the run is then refused rather than run without its rules.
   */
  async forRun(onRecord: (record: EgressRecord) => void): Promise<RunEgress | null> {
    const s = this.options.settings();
    const policy = new EgressPolicy(s.egress);
    if (!policy.enabled) return null;
    const ca = await this.ca().catch((err: Error) => {
      throw new Error(`egress is on, but the instance's CA could not be loaded from ${this.options.home}: ${err.message}`, { cause: err });
    });
    let upstreamCa: readonly string[] = tls.rootCertificates;
    if (s.egressCaFile) {
      try {
        upstreamCa = [...tls.rootCertificates, this.#readFile(s.egressCaFile)];
      } catch (err) {
        throw new Error(`egress is on, but egressCaFile ${s.egressCaFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
      }
    }
    // Secrets that cannot be read (variable unset, file missing) are left out: their hosts get no header,
    // and Health's egress row names each one (secretProblems).
    const { secrets } = resolveSecrets(s.secrets, { env: this.options.env, readFile: this.#readFile });
    const budget = new EgressBudget({ maxConnections: s.egressMaxConnections, maxBytes: s.egressMaxBytes }, onRecord);
    const proxy = new EgressProxy({
      policy,
      budget,
      secrets,
      resolve: this.options.resolve ?? systemResolve,
      ca,
      upstreamCa,
      ...(this.options.idleMs ? { idleMs: this.options.idleMs } : {}),
    });
    return {
      gateway: proxy,
      limits: tunnelLimits(s.egressMaxBytes, s.egressMaxConnections),
      agent: { caPem: ca.certPem, placeholders: placeholderEnv(s.secrets) },
      records: () => ({ egress: [...budget.records], egressDropped: budget.dropped }),
    };
  }
}
