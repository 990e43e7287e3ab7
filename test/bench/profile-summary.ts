// Summarizes a .cpuprofile: self time by function and by file (top N).
//   node --import tsx test/bench/profile-summary.ts FILE.cpuprofile [N]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary FILE [N]');
const top = Number(process.argv[3] ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\/\/work\/main\//, '')
    .replace(/node_modules\//g, 'nm/')
    .replace(/^node:/, 'node:');
const fnKey = (n: Node) =>
  `${n.callFrame.functionName || '(anon)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const fileKey = (n: Node) => {
  const u = shortUrl(n.callFrame.url);
  const m = /nm\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  return m ? `nm:${m[1]}` : u || `(${n.callFrame.functionName})`;
};
const sum = (key: (n: Node) => string) => {
  const out = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id);
    if (n) out.set(key(n), (out.get(key(n)) ?? 0) + t);
  }
  return [...out.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
};
// node's own code (and native frames) charged to the nearest caller outside node
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const owner = (id: number): string => {
  let at: number | undefined = id;
  while (at !== undefined) {
    const n = byId.get(at);
    if (!n) break;
    const u = n.callFrame.url;
    if (u !== '' && !u.startsWith('node:')) return fileKey(n);
    at = parent.get(at);
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
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`total ${(total / 1000).toFixed(0)} ms`);
console.log('--- self time by file/package');
for (const [k, t] of sum(fileKey)) console.log(`${pct(t)} ${k}`);
console.log('--- self time with node internals charged to their nearest non-node caller');
for (const [k, t] of [...owned.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)} ${k}`);
console.log('--- inclusive time by file/package (synchronous stacks only)');
for (const [k, t] of [...inclusive.entries()]
  .filter(([k]) => !k.startsWith('node:'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`${pct(t)} ${k}`);
console.log('--- self time by function');
for (const [k, t] of sum(fnKey)) console.log(`${pct(t)} ${k}`);
