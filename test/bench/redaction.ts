// Per-message cost of the secret redactor: no secrets, and 20 secrets (every form of each in one
// trie regex), on a short chat message, a 2 KB tool output and a log line; compile time once.
// Run: `npm run bench -- redaction`, or node --import tsx test/bench/redaction.ts
import { createRedactor, REDACTED, SECRET_PATTERNS } from '../../packages/logging/src/index.js';
import { smokeOr } from './smoke.js';

/** The redactor before redaction by value (literal secrets and the patterns), for comparison. */
function previousRedactor(secrets: readonly string[]): (text: string) => string {
  const escapeSource = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const literals = secrets.length === 0 ? null : new RegExp(secrets.map(escapeSource).join('|'), 'g');
  return (text) => {
    let out = literals === null ? text : text.replace(literals, REDACTED);
    for (const { pattern, replacement } of SECRET_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };
}

const SECRETS = Array.from({ length: 20 }, (_, i) => `secret-${i}-${'abcdefghij'.slice(i % 5)}${i * 7919}XYZ`);
const SHORT = 'Sure! The weather in Paris is 18°C and sunny; want me to book a table for two tonight at 8?';
const TOOL = `total 48\n${'drwxr-xr-x  2 user user 4096 Nov 25 16:00 some-directory-name\n'.repeat(30)}`.slice(0, 2048);
const LOG = JSON.stringify({
  level: 30,
  time: 1764085200000,
  name: 'hermes',
  component: 'gateway',
  platform: 'telegram',
  chatId: '123456789',
  msg: 'message accepted (42 chars)',
});

function measure(redact: (text: string) => string, text: string, calls: number): number {
  for (let i = 0; i < calls / 10; i++) redact(text);
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) redact(text);
  return Number(process.hrtime.bigint() - started) / calls;
}

export function runRedaction(): void {
  createRedactor(SECRETS.map((s) => `${s}-warm-up`))('warm up the code that compiles');
  const started = process.hrtime.bigint();
  const full = createRedactor(SECRETS);
  full('first use compiles the regex');
  const compileMs = Number(process.hrtime.bigint() - started) / 1e6;
  const none = createRedactor([]);
  const before = previousRedactor(SECRETS);
  for (const [name, text] of [
    ['chat message (90 B)', SHORT],
    ['tool output (2 KB)', TOOL],
    ['log line (180 B)', LOG],
  ] as const) {
    const calls = text.length > 1000 ? smokeOr(20_000, 200) : smokeOr(100_000, 1_000);
    // interleaved, best of 3: the machine is shared
    const best = (redact: (t: string) => string) => Math.min(...[0, 1, 2].map(() => measure(redact, text, calls / 2)));
    console.log(
      `redaction ${name}: ${best(none).toFixed(0)} ns with no secrets, ${best(full).toFixed(0)} ns with ${SECRETS.length} secrets (every form), ${best(before).toFixed(0)} ns for the previous redactor (as given only)`,
    );
  }
  console.log(`redaction: compiling ${SECRETS.length} secrets took ${compileMs.toFixed(1)} ms (once per process)`);
}

if (import.meta.url === `file://${process.argv[1]}`) runRedaction();
