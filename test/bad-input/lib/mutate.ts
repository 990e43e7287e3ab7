// Generated malformed payloads: a valid JSON template with one to three mutations (a field dropped,
// a wrong type, a hostile string, a deeply nested or 1 MB value, an unknown key, an array for an
// object). Deterministic for a given Rng.
import { megabyteText, nastyString, WRONG_VALUES } from './nasty.js';
import type { Rng } from './prng.js';

export type JsonPath = readonly (string | number)[];

export interface Mutation {
  /** e.g. `drop message.chat`, `type message.text=number`, `deep message.from depth=5000` */
  label: string;
  value: unknown;
  /** the paths touched, for expectations (e.g. "did this mutation touch the text only?") */
  paths: JsonPath[];
  kinds: MutationKind[];
}

export type MutationKind = 'drop' | 'type' | 'text' | 'deep' | 'huge' | 'extra' | 'array' | 'root';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every path of `value` (objects and arrays, not the root), at most `maxDepth` deep. */
export function pathsOf(value: unknown, maxDepth = 6, prefix: JsonPath = []): JsonPath[] {
  if (prefix.length >= maxDepth) return [];
  const out: JsonPath[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i], ...pathsOf(item, maxDepth, [...prefix, i]));
    });
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      out.push([...prefix, key], ...pathsOf(item, maxDepth, [...prefix, key]));
    }
  }
  return out;
}

export function pathLabel(path: JsonPath): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.') || '(root)';
}

function parentOf(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const segment of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

export function getAt(root: unknown, path: JsonPath): unknown {
  const parent = parentOf(root, path);
  const last = path.at(-1);
  if (last === undefined || parent === null || typeof parent !== 'object') return undefined;
  return (parent as Record<string | number, unknown>)[last];
}

function setAt(root: unknown, path: JsonPath, value: unknown): void {
  const parent = parentOf(root, path);
  const last = path.at(-1);
  if (last === undefined || parent === null || typeof parent !== 'object') return;
  // defineProperty: a "__proto__" key becomes an own property, as JSON.parse makes it
  Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
}

function deleteAt(root: unknown, path: JsonPath): void {
  const parent = parentOf(root, path);
  const last = path.at(-1);
  if (last === undefined || parent === null || typeof parent !== 'object') return;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else delete (parent as Record<string | number, unknown>)[last];
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'empty-array' : 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? `int(${value})` : `number(${value})`;
  if (typeof value === 'string') return value === '' ? 'empty-string' : 'string';
  return typeof value === 'object' && Object.keys(value).length === 0 ? 'empty-object' : typeof value;
}

const DEPTHS = [64, 512, 2_000, 10_000, 50_000] as const;

export interface MutateOptions {
  /** paths never mutated (e.g. the ids that keep inputs distinct) */
  keep?: (path: JsonPath) => boolean;
  /** how many mutations to combine, at most (default 3) */
  maxMutations?: number;
  /** kinds to draw from (default all but `root`) */
  kinds?: readonly MutationKind[];
  /** nesting depths for `deep` (default up to 50 000) */
  depths?: readonly number[];
}

// Deep values stay markers until serialised: JSON.stringify (and structuredClone) recurse and
// overflow the stack long before JSON.parse does, so the text is built without recursion.
const DEEP_MARKER = /"\\u0001deep:(\d+):(array|object)\\u0001"/g;

/** A placeholder for a value nested `depth` levels deep (see jsonText and materialize). */
export function deepMarker(depth: number, kind: 'array' | 'object'): string {
  return `\u0001deep:${depth}:${kind}\u0001`;
}

function deepText(depth: number, kind: string): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`
    : `${'{"n":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
}

/** The JSON text of a (mutated) value, deep markers expanded. */
export function jsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(DEEP_MARKER, (_m, depth: string, kind: string) =>
    deepText(Number(depth), kind),
  );
}

/** The value with deep markers turned into real nested values (only for depths JSON.stringify survives). */
export function materialize(value: unknown): unknown {
  return JSON.parse(jsonText(value));
}

/** The deepest marker in a value (0 when none): callers that must stringify skip deeper ones. */
export function maxDepthOf(value: unknown): number {
  let max = 0;
  for (const match of (JSON.stringify(value) ?? '').matchAll(DEEP_MARKER)) max = Math.max(max, Number(match[1]));
  return max;
}

const ALL_KINDS: readonly MutationKind[] = ['drop', 'type', 'text', 'deep', 'huge', 'extra', 'array'];

/** One mutated copy of `template`. */
export function mutate(template: unknown, rng: Rng, options: MutateOptions = {}): Mutation {
  const value: unknown = structuredClone(template);
  const keep = options.keep ?? (() => false);
  const kinds = options.kinds ?? ALL_KINDS;
  const count = rng.int(1, options.maxMutations ?? 3);
  const labels: string[] = [];
  const paths: JsonPath[] = [];
  const used: MutationKind[] = [];
  for (let i = 0; i < count; i++) {
    const candidates = pathsOf(value).filter((p) => !keep(p));
    if (candidates.length === 0) break;
    const path = rng.pick(candidates);
    const current = getAt(value, path);
    let kind = rng.pick(kinds);
    // text mutations need a string leaf; fall back to a type change elsewhere
    if (kind === 'text' && typeof current !== 'string') kind = 'type';
    const where = pathLabel(path);
    switch (kind) {
      case 'drop':
        deleteAt(value, path);
        labels.push(`drop ${where}`);
        break;
      case 'type': {
        const replacement = structuredClone(rng.pick(WRONG_VALUES));
        setAt(value, path, replacement);
        labels.push(`type ${where}=${typeName(replacement)}`);
        break;
      }
      case 'text':
        setAt(value, path, nastyString(rng));
        labels.push(`text ${where}`);
        break;
      case 'deep': {
        const depth = rng.pick(options.depths ?? DEPTHS);
        setAt(value, path, deepMarker(depth, rng.chance(0.5) ? 'array' : 'object'));
        labels.push(`deep ${where} depth=${depth}`);
        break;
      }
      case 'huge':
        setAt(value, path, megabyteText(rng.int(0, 1_000_000)));
        labels.push(`huge ${where} 1MB`);
        break;
      case 'extra': {
        const parent = isRecord(current) ? path : path.slice(0, -1);
        // arrays get no extra keys (an own "constructor" would break the generator's own splice)
        if (!isRecord(parent.length === 0 ? value : getAt(value, parent))) {
          setAt(value, path, structuredClone(rng.pick(WRONG_VALUES)));
          labels.push(`type ${where}`);
          break;
        }
        const key = rng.pick(['__proto__', 'constructor', 'x-unknown', '', '\u0000', 'prototype', 'then']);
        setAt(value, [...parent, key], structuredClone(rng.pick(WRONG_VALUES)));
        labels.push(`extra ${pathLabel([...parent, key])}`);
        break;
      }
      case 'array':
        setAt(value, path, [current, current]);
        labels.push(`array ${where}`);
        break;
      case 'root':
        break;
    }
    paths.push(path);
    used.push(kind);
  }
  return { label: labels.join('; '), value, paths, kinds: used };
}

/** Whole-body replacements: the payload is not the expected object at all. */
export function rootReplacements(): { label: string; value: unknown }[] {
  return [
    { label: 'root=null', value: null },
    { label: 'root=array', value: [] },
    { label: 'root=number', value: 42 },
    { label: 'root=string', value: 'hello' },
    { label: 'root=true', value: true },
    { label: 'root=empty-object', value: {} },
    { label: 'root=deep-array', value: deepMarker(20_000, 'array') },
    { label: 'root=deep-object', value: deepMarker(20_000, 'object') },
  ];
}
