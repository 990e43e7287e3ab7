// Type-level checks of the hook table's `defineHook`: the `@ts-expect-error` lines are compiled by
// `npx tsc -p test/tsconfig.json --noEmit`, which fails if any of them stops being an error.
import { describe, expect, it } from 'vitest';
import { defineHook, HOOKS, type HookPayloads } from '../src/index.js';

type Payload = { sessionId: string; attempt: number };
const doc = { wire: 'x', type: 'string', description: 'x' };
const fields = { sessionId: doc, attempt: doc };

describe('defineHook', () => {
  it('accepts a field list and an example that match the payload', () => {
    const spec = defineHook<Payload>()({
      kind: 'observe',
      fires: 'f',
      returns: 'r',
      fields,
      example: { sessionId: 's', attempt: 1 },
    });
    expect(spec.kind).toBe('observe');
  });

  it('rejects a missing field, an extra field, a wrong example value, a missing or extra example key', () => {
    const define = defineHook<Payload>();
    const base = { kind: 'observe' as const, fires: 'f', returns: 'r' };
    // @ts-expect-error attempt is not documented
    define({ ...base, fields: { sessionId: doc }, example: { sessionId: 's', attempt: 1 } });
    // @ts-expect-error extra is not a payload key
    define({ ...base, fields: { ...fields, extra: doc }, example: { sessionId: 's', attempt: 1 } });
    // @ts-expect-error attempt is a number
    define({ ...base, fields, example: { sessionId: 's', attempt: '1' } });
    // @ts-expect-error the example lacks attempt
    define({ ...base, fields, example: { sessionId: 's' } });
    const extraExample = { sessionId: 's', attempt: 1, extra: true };
    // @ts-expect-error the example has a key the payload lacks
    define({ ...base, fields, example: extraExample });
    // @ts-expect-error not a hook kind
    define({ ...base, kind: 'veto', fields, example: { sessionId: 's', attempt: 1 } });
    expect(true).toBe(true);
  });

  it('the table keeps its literal kinds and its handles-free dispatch example', () => {
    const kind: 'gate' = HOOKS.pre_tool_call.kind;
    expect(kind).toBe('gate');
    const example: { gateway: null; sessionStore: null } = HOOKS.pre_gateway_dispatch.example;
    expect(example.gateway).toBeNull();
    const payloadKeys: (keyof HookPayloads['post_tool_call'])[] = ['durationMs', 'result'];
    for (const key of payloadKeys) expect(Object.keys(HOOKS.post_tool_call.fields)).toContain(key);
  });
});
