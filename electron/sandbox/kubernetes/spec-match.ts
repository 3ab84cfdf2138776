// Whether a pod found in the cluster is the pod Sandbar would create, before Sandbar uses it: a warm pod to
// adopt, or a SandboxTemplate someone else created first under Sandbar's name. Labels are no proof (anyone
// with `pods: create` in the namespace can copy them), so the fields that decide what the code runs as and
// can reach are compared: image, command and args, the environment, both securityContexts, volumes and mounts, the service
// account and its token, host namespaces, and no other container. Pure.

type Json = Record<string, unknown>;

/** Plain JSON (the client's typed objects carry undefined fields and class prototypes). */
const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

const same = (a: unknown, b: unknown) => JSON.stringify(sorted(plain(a))) === JSON.stringify(sorted(plain(b)));

/** Keys in a fixed order, so two objects that differ only in key order compare equal. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Json)[k])]));
}

const asObject = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The API server names the default service account on every pod; none named or `default` is Sandbar's. */
const serviceAccount = (spec: Json) => {
  const name = spec.serviceAccountName ?? spec.serviceAccount;
  return { name: name === undefined || name === 'default' ? 'default' : name, automount: spec.automountServiceAccountToken ?? true };
};

/**
 * Why the pod spec `actual` is not `expected` (Sandbar's manifest for the same spec), in words for health
 * and the log; null when it matches.
 */
export function podSpecMismatch(actualSpec: unknown, expectedSpec: unknown): string | null {
  const actual = asObject(plain(actualSpec));
  const expected = asObject(plain(expectedSpec));
  const [container, ...others] = list(actual.containers).map(asObject);
  const want = asObject(list(expected.containers)[0]);
  if (!container || others.length > 0 || list(actual.initContainers).length > 0 || list(actual.ephemeralContainers).length > 0) {
    return 'it does not run exactly one container';
  }
  const checks: [string, unknown, unknown][] = [
    ['image', container.image, want.image],
    ['command', [container.command, container.args, container.workingDir], [want.command, want.args, want.workingDir]],
    // PYTHONPATH, PYTHONSTARTUP and the like change what the interpreter runs before the agent.
    ['env', [container.env ?? [], container.envFrom ?? []], [want.env ?? [], want.envFrom ?? []]],
    ['securityContext', [actual.securityContext, container.securityContext], [expected.securityContext, want.securityContext]],
    ['volumes', [actual.volumes ?? [], container.volumeMounts ?? []], [expected.volumes ?? [], want.volumeMounts ?? []]],
    ['service account', serviceAccount(actual), serviceAccount(expected)],
    ['host namespaces', [actual.hostNetwork ?? false, actual.hostPID ?? false, actual.hostIPC ?? false], [expected.hostNetwork ?? false, expected.hostPID ?? false, expected.hostIPC ?? false]],
    ['runtimeClassName', actual.runtimeClassName ?? null, expected.runtimeClassName ?? null],
  ];
  const differ = checks.filter(([, a, b]) => !same(a, b)).map(([what]) => what);
  return differ.length === 0 ? null : `its ${differ.join(', ')} ${differ.length === 1 ? 'differs' : 'differ'} from what Sandbar would create`;
}
