// Counts per edge: how many inputs were tried and how many passed, with the first failures kept for
// the report. Each test file prints its edges; the file that finishes last also prints the total of
// every edge written by this run (results are shared through a folder named after the vitest run).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every edge of the corpus, in report order; the total is printed once all of them reported. */
export const EDGES = [
  'telegram-webhook',
  'telegram-polling',
  'discord-gateway',
  'slack-http',
  'slack-socket',
  'webhook-auth',
  'whatsapp-webhook',
  'whatsapp-auth',
  'signal-events',
  'email-mail',
  'matrix-sync',
  'api-platform',
  'model-response',
  'config-yaml',
  'plugin-yaml',
  'hook-yaml',
  'shell-stdout',
] as const;

export type Edge = (typeof EDGES)[number];

export interface Failure {
  edge: Edge;
  label: string;
  why: string;
}

interface EdgeCount {
  tried: number;
  passed: number;
}

/** failures kept per edge for the report (the counts cover all) */
const MAX_KEPT_FAILURES = 60;

export class Tally {
  readonly #counts = new Map<Edge, EdgeCount>();
  readonly failures: Failure[] = [];

  /** Records one input: `why` is null when it passed. */
  record(edge: Edge, label: string, why: string | null): void {
    const count = this.#counts.get(edge) ?? { tried: 0, passed: 0 };
    count.tried += 1;
    if (why === null) count.passed += 1;
    else if (this.failures.filter((f) => f.edge === edge).length < MAX_KEPT_FAILURES) {
      this.failures.push({ edge, label, why });
    }
    this.#counts.set(edge, count);
  }

  count(edge: Edge): EdgeCount {
    return this.#counts.get(edge) ?? { tried: 0, passed: 0 };
  }

  /** Failures of one edge, formatted for an assertion message. */
  failuresOf(edge: Edge): string[] {
    return this.failures.filter((f) => f.edge === edge).map((f) => `${f.label}: ${f.why}`);
  }

  /** Prints this file's edges, saves them for the run total, and prints the total when every edge is in. */
  report(file: string): void {
    const rows = [...this.#counts.entries()];
    const lines = rows.map(([edge, c]) => formatRow(edge, c));
    for (const [edge] of rows) {
      for (const f of this.failures.filter((x) => x.edge === edge).slice(0, 5)) {
        lines.push(`  FAILED ${f.edge}: ${f.label}: ${f.why.slice(0, 400)}`);
      }
    }
    console.log(`bad-input (${file}):\n${lines.join('\n')}`);
    const dir = runDir();
    writeFileSync(join(dir, `${file}.json`), JSON.stringify(Object.fromEntries(rows)));
    const all = new Map<string, EdgeCount>();
    for (const name of readdirSync(dir)) {
      const saved = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, EdgeCount>;
      for (const [edge, c] of Object.entries(saved)) {
        const sum = all.get(edge) ?? { tried: 0, passed: 0 };
        all.set(edge, { tried: sum.tried + c.tried, passed: sum.passed + c.passed });
      }
    }
    if (!EDGES.every((edge) => all.has(edge))) return;
    const total = [...all.values()].reduce((a, c) => ({ tried: a.tried + c.tried, passed: a.passed + c.passed }), {
      tried: 0,
      passed: 0,
    });
    const table = EDGES.map((edge) => formatRow(edge, all.get(edge) ?? { tried: 0, passed: 0 }));
    console.log(
      `bad-input total over ${EDGES.length} edges: ${total.tried} inputs tried, ${total.passed} passed\n${table.join('\n')}`,
    );
  }
}

function formatRow(edge: string, c: EdgeCount): string {
  return `  ${edge.padEnd(18)} tried ${String(c.tried).padStart(5)}  passed ${String(c.passed).padStart(5)}`;
}

/** One folder per vitest run: workers share the parent's pid. */
function runDir(): string {
  const dir = join(
    tmpdir(),
    `hermes-bad-input-run-${process.env.VITEST_POOL_ID === undefined ? process.pid : process.ppid}`,
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}
