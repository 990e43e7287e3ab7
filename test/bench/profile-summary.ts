// Summarizes a .cpuprofile: self time by file/package, by owner (node internals charged to their caller),
// inclusive by file, and by function (top N).
//   node --import tsx test/bench/profile-summary.ts FILE.cpuprofile [N]
// Frames in the CLI's bundle (apps/hermes/dist/bundle/chunk-*.js) are charged to the module esbuild
// joined there (bundle-sources.ts); a function's line is then its line within that module, with the
// bundle file and line after it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleSources, type SourceFrame, shortUrl } from './bundle-sources.js';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
export type SourceOf = (url: string, line: number) => SourceFrame;

/** The summary's lines. */
export function summarize(profile: CpuProfile, top: number, sourceOf: SourceOf = bundleSources()): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frames = new Map<number, SourceFrame>();
  const frame = (n: ProfileNode) => {
    let f = frames.get(n.id);
    if (!f) {
      f = sourceOf(n.callFrame.url, n.callFrame.lineNumber);
      frames.set(n.id, f);
    }
    return f;
  };
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fnKey = (n: ProfileNode) => {
    const f = frame(n);
    return `${n.callFrame.functionName || '(anon)'} ${shortUrl(f.url)}:${f.line + 1}${f.bundle ? ` (${f.bundle})` : ''}`;
  };
  const fileKey = (n: ProfileNode) => {
    const u = shortUrl(frame(n).url);
    const m = /nm\/((?:@[^/]+\/)?[^/]+)/.exec(u);
    return m ? `nm:${m[1]}` : u || `(${n.callFrame.functionName})`;
  };
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const sum = (key: (n: ProfileNode) => string) => {
    const out = new Map<string, number>();
    for (const [id, t] of self) {
      const n = byId.get(id);
      if (n) out.set(key(n), (out.get(key(n)) ?? 0) + t);
    }
    return sorted(out);
  };
  // node's own code (and native frames) charged to the nearest caller outside node
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owner = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n) break;
      const u = n.callFrame.url;
      if (u !== '' && !u.startsWith('node:')) return fileKey(n);
    }
    const n = byId.get(id);
    return n ? fileKey(n) : '?';
  };
  const owned = new Map<string, number>();
  for (const [id, t] of self) owned.set(owner(id), (owned.get(owner(id)) ?? 0) + t);
  // inclusive: a sample counts once for every file/package on its stack
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (n?.callFrame.url) seen.add(fileKey(n));
    }
    for (const k of seen) if (!k.startsWith('node:')) inclusive.set(k, (inclusive.get(k) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
  const lines = [`total ${(total / 1000).toFixed(0)} ms`];
  const section = (title: string, rows: [string, number][]) => {
    lines.push(`--- ${title}`);
    for (const [k, t] of rows) lines.push(`${pct(t)} ${k}`);
  };
  section('self time by file/package', sum(fileKey));
  section('self time with node internals charged to their nearest non-node caller', sorted(owned));
  section('inclusive time by file/package (synchronous stacks only)', sorted(inclusive));
  section('self time by function', sum(fnKey));
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary FILE [N]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  console.log(summarize(profile, Number(process.argv[3] ?? 40)).join('\n'));
}
