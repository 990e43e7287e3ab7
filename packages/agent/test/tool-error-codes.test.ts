import { ERROR_CODES, HermesError, type ToolDefinition } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { executeToolCall } from '../src/index.js';
import { parseArgs, requiredString, ToolArgumentError } from '../src/tools/tool-args.js';
import { createFakeContext } from './tools/fake-tool-context.js';

const schema = (name: string) => ({ name, description: 'd', parameters: { type: 'object', properties: {} } });

function tool(name: string, handler: ToolDefinition['handler']): ToolDefinition {
  return { name, toolset: 't', schema: schema(name), handler };
}

async function call(tools: ToolDefinition[], name: string, args: string): Promise<Record<string, unknown>> {
  const { context } = createFakeContext();
  const { toolCallId: _id, ...rest } = context;
  const message = await executeToolCall(
    { id: 'c1', type: 'function', function: { name, arguments: args } },
    { tools: new Map(tools.map((t) => [t.name, t])), hooks: context.hooks, context: rest, timeoutMs: 5_000 },
  );
  return JSON.parse(message.content) as Record<string, unknown>;
}

describe('tool argument errors', () => {
  it('ToolArgumentError is a HermesError coded HERMES_TOOL_ARGS; parseArgs passes the code on', () => {
    const parsed = parseArgs(() => requiredString({ path: 7 }, 'path'));
    expect(parsed).toEqual({
      ok: false,
      error: 'Invalid argument "path": expected a string, got number',
      code: ERROR_CODES.TOOL_ARGS,
    });
    const err = new ToolArgumentError('x');
    expect(err).toBeInstanceOf(HermesError);
    expect(err.code).toBe(ERROR_CODES.TOOL_ARGS);
    expect(err.name).toBe('ToolArgumentError');
  });

  it.each([
    ['{not json', /Invalid arguments for tool "echo": arguments are not valid JSON/],
    ['[1, 2]', /Invalid arguments for tool "echo": arguments must be a JSON object, got an array/],
    ['"text"', /arguments must be a JSON object, got string/],
  ])('the executor refuses arguments %j with HERMES_TOOL_ARGS, naming the tool', async (args, message) => {
    let ran = false;
    const echo = tool('echo', () => {
      ran = true;
      return 'ok';
    });
    const result = await call([echo], 'echo', args);
    expect(result.code).toBe(ERROR_CODES.TOOL_ARGS);
    expect(result.error).toMatch(message);
    expect(ran).toBe(false);
  });

  it('a handler that throws a HermesError keeps its code; any other throw has none', async () => {
    // a plugin's handler may use the readers and let their error through
    const coded = tool('coded', (args) => requiredString(args, 'q'));
    const plain = tool('plain', () => {
      throw new Error('kaput');
    });
    expect(await call([coded], 'coded', '{}')).toEqual({
      error: 'tool coded failed: Missing required argument "q": expected a string',
      code: ERROR_CODES.TOOL_ARGS,
    });
    expect(await call([plain], 'plain', '{}')).toEqual({ error: 'tool plain failed: kaput' });
  });
});
