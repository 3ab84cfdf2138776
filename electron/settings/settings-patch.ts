// How a panel patch meets the settings file, guided by the schema's shape:
//  - objects with fixed fields (`limits`) are merged field by field;
//  - records keyed by server name (`mcpServers`, `serverPolicies`) are merged key by key, each entry
//    replaced whole, and a `null` entry removes that key (so one server can be changed or dropped);
//  - everything else (numbers, strings, arrays such as `importClients`) is replaced.
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

type Values = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/** A field of the schema by its own name only: `constructor` or `__proto__` are not settings. */
function ownField(schema: z.ZodObject, key: string): z.ZodType | undefined {
  return Object.hasOwn(schema.shape, key) ? (schema.shape[key] as z.ZodType) : undefined;
}

/** `__proto__` as a record key would replace the merged object's prototype instead of adding an entry. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Decides, per leaf of a patch, whether it is applied; records a field error when it is refused. */
export type LeafCheck = (dotted: string, value: unknown) => boolean;

/**
 * The patch with unknown fields (`fields[path] = 'unknown setting'`) and the leaves `keep` refuses removed.
 * Leaves are fixed fields and record entries (`serverPolicies.github`).
 */
export function prunePatch(patch: Values, schema: z.ZodObject, keep: LeafCheck, fields: Record<string, string>, prefix = ''): Values {
  const out: Values = {};
  for (const [key, value] of Object.entries(patch)) {
    const dotted = join(prefix, key);
    const field = ownField(schema, key);
    if (!field) {
      fields[dotted] ??= 'unknown setting';
      continue;
    }
    const inner = unwrap(field);
    if (inner instanceof z.ZodObject && isPlainObject(value)) {
      out[key] = prunePatch(value, inner, keep, fields, dotted);
    } else if (inner instanceof z.ZodRecord && isPlainObject(value)) {
      const entries: Values = {};
      for (const [name, entry] of Object.entries(value)) {
        if (UNSAFE_KEYS.has(name)) fields[join(dotted, name)] ??= `"${name}" cannot be used as a name`;
        else if (keep(join(dotted, name), entry)) entries[name] = entry;
      }
      out[key] = entries;
    } else if (keep(dotted, value)) {
      out[key] = value;
    }
  }
  return out;
}

/** `base` with `patch` applied by the rules above; neither argument is modified. */
export function applyPatch(base: unknown, patch: unknown, schema: z.ZodType): unknown {
  const inner = unwrap(schema);
  if (!isPlainObject(patch)) return patch;
  const out: Values = isPlainObject(base) ? { ...base } : {};
  if (inner instanceof z.ZodObject) {
    for (const [key, value] of Object.entries(patch)) {
      const field = ownField(inner, key);
      out[key] = field ? applyPatch(out[key], value, field) : value;
    }
    return out;
  }
  if (inner instanceof z.ZodRecord) {
    for (const [name, entry] of Object.entries(patch)) {
      if (entry === null) delete out[name];
      else out[name] = entry;
    }
    return out;
  }
  return patch;
}

/** Dotted paths whose values differ, down to fixed fields and record entries (`serverPolicies.github`). */
export function changedPaths(before: unknown, after: unknown, schema: z.ZodType, prefix = ''): string[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && isPlainObject(before) && isPlainObject(after)) {
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => changedPaths(before[key], after[key], field, join(prefix, key)));
  }
  if (inner instanceof z.ZodRecord && isPlainObject(before) && isPlainObject(after)) {
    const names = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...names].filter((name) => !isDeepStrictEqual(before[name], after[name])).map((name) => join(prefix, name));
  }
  return isDeepStrictEqual(before, after) ? [] : [prefix];
}

export function valueAt(source: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), source);
}
