// profile-gateway.ts's breakdown of a gateway profile: each sample goes to the category of the nearest frame
// (leaf to root) one of CATEGORIES claims, by the frame's source module (bundle frames mapped back to the
// module esbuild joined there: bundle-sources.ts); unclaimed samples are node internals or V8.
import { bundleSources, shortUrl } from './bundle-sources.js';
import type { CpuProfile, ProfileNode, SourceOf } from './profile-summary.js';

/** Where a stack's time goes: the nearest frame (leaf to root) that one of these claims. */
export const CATEGORIES: [string, RegExp][] = [
  ['GC', /^\(garbage collector\)$/],
  [
    'model request (client, undici)',
    /agent\/(?:src|dist)\/(post-completion|fast-fetch|model-client|model-sdk|completion-json)|nm\/(undici|openai)\//,
  ],
  ['SQLite (store)', /packages\/store\/|nm\/better-sqlite3\//],
  [
    'platform send/receive (Telegram adapter, grammy)',
    /plugins\/platforms\/telegram\/|nm\/grammy\/|nm\/@grammyjs\/|nm\/node-fetch\//,
  ],
  ['hooks', /packages\/plugins\/(?:src|dist)\/hook|gateway\/(?:src|dist)\/gateway-hooks\//],
  [
    'logging',
    /packages\/logging\/(?:src|dist)\/(create-logger|file-sink|console-sink|levels|redacting-destination)|nm\/(pino|pino-std-serializers|sonic-boom|thread-stream)\//,
  ],
  ['redaction', /packages\/logging\//],
  ['metrics', /gateway\/(?:src|dist)\/metrics\/|nm\/prom-client\//],
  [
    'HTTP intake (Fastify, request guard)',
    /gateway\/(?:src|dist)\/http\/|gateway\/(?:src|dist)\/server|nm\/(fastify|find-my-way|light-my-request|avvio|@fastify)\//,
  ],
  ['gateway pipeline (sessions, lanes, delivery, turn)', /packages\/(gateway|agent)\//],
];

export const NODE_INTERNALS = 'other: node internals (sockets, timers, promises)';
export const PROGRAM = 'other: V8/native outside JS ((program))';

/** Time (µs) by category, '(idle)' included. */
export function categorize(profile: CpuProfile, sourceOf: SourceOf = bundleSources()): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keys = new Map<number, string>();
  const key = (n: ProfileNode) => {
    let k = keys.get(n.id);
    if (k === undefined) {
      k = shortUrl(sourceOf(n.callFrame.url, n.callFrame.lineNumber).url);
      keys.set(n.id, k);
    }
    return k;
  };
  const claim = (id: number): string => {
    const leaf = byId.get(id);
    if (leaf?.callFrame.functionName === '(idle)') return '(idle)';
    if (leaf?.callFrame.functionName === '(garbage collector)') return 'GC';
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n) break;
      const k = key(n);
      for (const [name, re] of CATEGORIES) if (re.test(k)) return name;
    }
    return leaf?.callFrame.functionName === '(program)' ? PROGRAM : NODE_INTERNALS;
  };
  const totals = new Map<string, number>();
  for (const [i, id] of profile.samples.entries()) {
    const c = claim(id);
    totals.set(c, (totals.get(c) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return totals;
}

/** The breakdown's lines: busy and idle time, then each category's share of the busy time. */
export function categoryLines(totals: Map<string, number>): string[] {
  const rest = new Map(totals);
  const idle = rest.get('(idle)') ?? 0;
  rest.delete('(idle)');
  const busy = [...rest.values()].reduce((a, b) => a + b, 0);
  return [
    `--- where the time goes (busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms)`,
    ...[...rest.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, t]) => `${((100 * t) / busy).toFixed(1).padStart(5)}% ${name}`),
  ];
}
