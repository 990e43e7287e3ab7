// Files an operator (or a plugin author) writes: config.yaml, plugin.yaml, HOOK.yaml, and what a
// shell hook prints on stdout. Generated from valid documents (value mutations, then text-level
// corruption) plus hand-written hostile ones.
import { stringify } from 'yaml';
import { mutate } from '../lib/mutate.js';
import { CONTROL_CHARS, megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import type { Rng } from '../lib/prng.js';

export interface TextCase {
  label: string;
  text: string | Uint8Array;
}

export const VALID_CONFIG = {
  model: { default: 'gpt-x', base_url: 'http://127.0.0.1:9/v1', timeout_s: 60, max_tokens: 1000, temperature: 0.5 },
  agent: {
    max_iterations: 10,
    api_max_retries: 2,
    system_prompt: 'You are Hermes.',
    toolsets: ['*'],
    tool_timeout_s: 30,
  },
  terminal: { timeout_s: 30, max_output_chars: 1000, cwd: '/tmp', dangerous_patterns_extra: ['rm -rf'] },
  logging: { level: 'info', redact: ['X_TOKEN'] },
  plugins: { enabled: ['calculator'], disabled: [], hook_timeout_ms: 1000 },
  hooks: { pre_tool_call: [{ matcher: 'terminal', command: '/bin/true', timeout: 5 }] },
  hooks_auto_accept: false,
  display: { busy_input_mode: 'queue', streaming: false },
  session_reset: { mode: 'idle', idle_minutes: 60, at_hour: 4 },
  gateway: {
    host: '127.0.0.1',
    port: 8642,
    drain_timeout_s: 5,
    max_concurrent_runs: 4,
    free_response_chats: ['telegram:1'],
    group_sessions: 'per_user',
    hook_timeout_s: 10,
    platforms: { telegram: { mode: 'polling', poll_timeout_s: 10 } },
  },
  web: { backend: 'fetch', timeout_s: 10, max_page_bytes: 100_000, max_content_chars: 1000 },
  security: { allow_private_urls: false },
};

export const VALID_PLUGIN = {
  name: 'junk-plugin',
  version: '1.0.0',
  description: 'a plugin',
  author: 'someone',
  kind: 'standalone',
  provides_tools: ['junk_tool'],
  provides_hooks: ['pre_tool_call'],
  requires_env: [{ name: 'JUNK_KEY', description: 'a key', secret: true }],
};

export const VALID_HOOK = { name: 'junk-hook', description: 'a hook', events: ['agent:end', 'command:*'] };

/** Random text-level damage to a valid YAML document: cuts, stray syntax, control bytes. */
function corruptText(rng: Rng, text: string): { label: string; text: string } {
  const pos = rng.int(0, text.length);
  const junk = rng.pick([
    ':',
    '{',
    '}',
    '[',
    ']',
    '\t',
    '&a ',
    '*a',
    '!!',
    '%YAML 1.1\n',
    '\n---\n',
    '\u0000',
    '- ',
    '? ',
    '|',
    '>',
    '"',
    "'",
    '#',
    '@',
    '`',
    '\ufeff',
    '\r',
    ' '.repeat(rng.int(1, 9)),
    rng.pick(NASTY_STRINGS).slice(0, 50),
  ]);
  switch (rng.int(0, 3)) {
    case 0:
      return { label: `cut at ${pos}`, text: text.slice(0, pos) };
    case 1:
      return { label: `insert ${JSON.stringify(junk)} at ${pos}`, text: text.slice(0, pos) + junk + text.slice(pos) };
    case 2: {
      const length = rng.int(1, 20);
      return { label: `delete ${length} at ${pos}`, text: text.slice(0, pos) + text.slice(pos + length) };
    }
    default: {
      const lines = text.split('\n');
      const i = rng.int(0, lines.length - 1);
      lines[i] = rng.chance(0.5) ? `\t${lines[i]}` : (lines[i] ?? '').trimStart();
      return { label: `reindent line ${i}`, text: lines.join('\n') };
    }
  }
}

/** Value mutations of `valid` (as YAML) and text corruptions of its YAML. */
export function generatedDocuments(rng: Rng, valid: object, mutations: number, corruptions: number): TextCase[] {
  const out: TextCase[] = [];
  for (let i = 0; i < mutations; i++) {
    const m = mutate(valid, rng, { kinds: ['drop', 'type', 'text', 'extra', 'array'] });
    out.push({ label: `mutated #${i}: ${m.label}`, text: stringify(m.value) });
  }
  const text = stringify(valid);
  for (let i = 0; i < corruptions; i++) {
    const c = corruptText(rng, text);
    out.push({ label: `corrupted #${i}: ${c.label}`, text: c.text });
  }
  return out;
}

/** Hostile YAML documents any of the three files may be. */
export function hostileYaml(): TextCase[] {
  const bomb = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  ].join('\n');
  return [
    { label: 'empty file', text: '' },
    { label: 'only a comment', text: '# nothing\n' },
    { label: 'only whitespace', text: ' \n\t\n' },
    { label: 'a bare string', text: 'hello' },
    { label: 'a list', text: '- a\n- b\n' },
    { label: 'null document', text: '~' },
    { label: 'alias bomb (billion laughs)', text: bomb },
    { label: 'flow nesting 1000 deep', text: `x: ${'['.repeat(1_000)}${']'.repeat(1_000)}` },
    { label: 'flow nesting 20000 deep', text: `x: ${'['.repeat(20_000)}${']'.repeat(20_000)}` },
    { label: 'map nesting 5000 deep', text: `x: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}` },
    {
      label: 'block nesting 2000 deep',
      text: Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
    },
    { label: '1 MB value', text: `model:\n  default: "${megabyteText(51).replace(/\n/g, ' ')}"\n` },
    { label: '1 MB key', text: `${'k'.repeat(1024 * 1024)}: 1\n` },
    { label: '5 000 unknown keys', text: Array.from({ length: 5_000 }, (_, i) => `key${i}: ${i}`).join('\n') },
    { label: 'duplicate keys', text: 'model:\n  default: a\nmodel:\n  default: b\n' },
    { label: 'tabs for indentation', text: 'model:\n\tdefault: a\n' },
    { label: 'CRLF line ends', text: 'model:\r\n  default: a\r\n' },
    { label: 'BOM first', text: '\ufeffmodel:\n  default: a\n' },
    { label: 'NUL bytes', text: 'model:\n  default: "a\u0000b"\n\u0000\n' },
    { label: 'control characters', text: `model:\n  default: "${CONTROL_CHARS.replace(/["\\]/g, '')}"\n` },
    {
      label: 'invalid UTF-8',
      text: Buffer.concat([
        Buffer.from('model:\n  default: "'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        Buffer.from('"\n'),
      ]),
    },
    { label: 'lone surrogate escape', text: 'model:\n  default: "\\ud800"\n' },
    { label: 'js function tag', text: 'model: !!js/function "function(){ process.exit(1) }"\n' },
    { label: 'python object tag', text: 'model: !!python/object/apply:os.system ["echo pwned"]\n' },
    { label: 'binary tag', text: 'model: !!binary aGVsbG8=\n' },
    { label: 'unknown custom tag', text: 'model: !evil {default: a}\n' },
    { label: 'set and omap tags', text: 'plugins: !!set {a, b}\nweb: !!omap [a: 1]\n' },
    { label: 'two documents', text: 'model:\n  default: a\n---\nmodel:\n  default: b\n' },
    { label: 'merge keys', text: 'base: &b {default: a}\nmodel:\n  <<: *b\n  timeout_s: 5\n' },
    { label: 'undefined alias', text: 'model: *nowhere\n' },
    {
      label: '__proto__ keys',
      text: '__proto__:\n  polluted: true\nmodel:\n  __proto__: {polluted: true}\n  constructor: {prototype: {polluted: true}}\n',
    },
    { label: 'YAML 1.1 booleans and octals', text: 'hooks_auto_accept: yes\ngateway:\n  port: 0o777\n  host: on\n' },
    {
      label: 'numbers out of range',
      text: 'gateway:\n  port: 1e400\n  max_concurrent_runs: -.inf\nmodel:\n  timeout_s: .nan\n',
    },
    { label: 'unclosed quote', text: 'model:\n  default: "abc\n' },
    { label: 'unclosed flow', text: 'agent: {toolsets: [a, b\n' },
    { label: 'directive junk', text: '%TAG ! tag:evil,2000:\n--- !evil\nx: 1\n' },
    { label: 'invalid regex', text: 'terminal:\n  dangerous_patterns_extra: ["(unclosed", "[z-a]"]\n' },
    { label: 'catastrophic regex', text: 'terminal:\n  dangerous_patterns_extra: ["(a+)+$", "(.*a){20}"]\n' },
    {
      label: 'hooks with junk commands',
      text: 'hooks:\n  pre_tool_call:\n    - command: 5\n    - {}\n    - command: ""\n  not_a_hook:\n    - command: /bin/true\n',
    },
    { label: 'platforms not a map', text: 'gateway:\n  platforms: [telegram]\n' },
    {
      label: 'platform settings junk',
      text: 'gateway:\n  platforms:\n    telegram: hello\n    discord: {enabled: maybe}\n',
    },
  ];
}

/** What a shell hook may print: each must be parsed into a typed result or reported, never thrown. */
export function shellOutputs(rng: Rng, generated: number): TextCase[] {
  const outputs: TextCase[] = [
    { label: 'nothing', text: '' },
    { label: 'whitespace', text: ' \n\t\n' },
    { label: 'plain text', text: 'hello from the hook' },
    { label: 'JSON null', text: 'null' },
    { label: 'JSON number', text: '42' },
    { label: 'JSON string', text: '"block"' },
    { label: 'JSON list', text: '[{"decision":"block"}]' },
    { label: 'truncated JSON', text: '{"decision":"blo' },
    { label: 'two JSON documents', text: '{"context":"a"}\n{"context":"b"}' },
    { label: 'JSON then junk', text: '{"context":"a"} trailing' },
    { label: 'ANSI colours around JSON', text: '\u001b[32m{"context":"x"}\u001b[0m' },
    { label: 'BOM then JSON', text: '\ufeff{"context":"bom"}' },
    { label: 'NUL bytes', text: '{"context":"a\u0000b"}\u0000' },
    {
      label: 'invalid UTF-8',
      text: Buffer.concat([Buffer.from('{"context":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    },
    { label: 'binary junk', text: new Uint8Array([0, 1, 2, 255, 254, 0xc3, 0x28, 10]) },
    { label: 'just over the 1 MB output cap', text: `{"context":"${'x'.repeat(1_000_100)}"}` },
    { label: '1 MB context', text: JSON.stringify({ context: megabyteText(61) }) },
    { label: 'nesting 20000 deep', text: `{"context":${'['.repeat(20_000)}${']'.repeat(20_000)}}` },
    { label: 'block with a reason', text: '{"decision":"block","reason":"no"}' },
    { label: 'block without a reason', text: '{"decision":"block"}' },
    { label: 'block as action with a message', text: '{"action":"block","message":"nope"}' },
    { label: 'block with a reason that is a number', text: '{"decision":"block","reason":5}' },
    { label: 'block with a 1 MB reason', text: JSON.stringify({ decision: 'block', reason: megabyteText(62) }) },
    { label: 'decision upper-case', text: '{"decision":"BLOCK"}' },
    { label: 'approve', text: '{"decision":"approve"}' },
    { label: 'context a number', text: '{"context":5}' },
    { label: 'context an object', text: '{"context":{"a":1}}' },
    { label: 'context with control characters', text: JSON.stringify({ context: CONTROL_CHARS }) },
    { label: 'replace with text', text: '{"replace":"replaced result"}' },
    { label: 'replace empty', text: '{"replace":""}' },
    { label: 'replace a number', text: '{"replace":5}' },
    { label: 'rewrite', text: '{"action":"rewrite","text":"rewritten message"}' },
    { label: 'rewrite to empty', text: '{"action":"rewrite","text":""}' },
    { label: 'rewrite to a number', text: '{"action":"rewrite","text":5}' },
    { label: 'rewrite to 1 MB', text: JSON.stringify({ action: 'rewrite', text: megabyteText(63) }) },
    { label: 'rewrite to a command', text: '{"action":"rewrite","text":"/sethome"}' },
    { label: 'allow', text: '{"action":"allow"}' },
    { label: 'action unknown', text: '{"action":"explode"}' },
    { label: 'action a number', text: '{"action":1}' },
    { label: '__proto__ keys', text: '{"__proto__":{"polluted":true},"context":"p"}' },
    {
      label: 'every field at once',
      text: '{"decision":"block","action":"rewrite","text":"t","context":"c","replace":"r"}',
    },
  ];
  for (const [i, text] of NASTY_STRINGS.entries()) {
    if (i % 4 === 0) {
      outputs.push({ label: `context text #${i}`, text: JSON.stringify({ context: text, replace: text }) });
    } else if (i % 4 === 2) outputs.push({ label: `raw nasty text #${i}`, text });
  }
  const bases = [
    { decision: 'block', reason: 'r' },
    { action: 'rewrite', text: 't' },
    { action: 'skip', reason: 'r' },
    { context: 'c' },
    { replace: 'r' },
  ];
  for (let i = 0; i < generated; i++) {
    const m = mutate(rng.pick(bases), rng, { kinds: ['drop', 'type', 'text', 'extra', 'array'] });
    outputs.push({ label: `generated #${i}: ${m.label}`, text: JSON.stringify(m.value) ?? '' });
  }
  return outputs;
}
