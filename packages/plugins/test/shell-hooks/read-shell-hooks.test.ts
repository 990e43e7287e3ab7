import { describe, expect, it } from 'vitest';
import { readShellHooks, TOOL_EVENTS } from '../../src/index.js';

const options = { configPath: '/h/config.yaml', userHome: '/home/ann' };

describe('readShellHooks', () => {
  it('reads valid entries: argv split without a shell, ~ expanded, defaults applied', () => {
    const { hooks, warnings } = readShellHooks(
      {
        pre_tool_call: [
          { matcher: 'terminal|write_file', command: '~/hooks/check.sh --strict "two words"', timeout: 5 },
        ],
        pre_llm_call: [{ command: 'python3 ~/hooks/ctx.py' }],
      },
      options,
    );
    expect(warnings).toEqual([]);
    expect(hooks).toHaveLength(2);
    const [gate, inject] = hooks;
    expect(gate).toMatchObject({
      event: 'pre_tool_call',
      index: 0,
      command: '~/hooks/check.sh --strict "two words"',
      argv: ['/home/ann/hooks/check.sh', '--strict', 'two words'],
      matcher: 'terminal|write_file',
      timeoutS: 5,
    });
    expect(inject).toMatchObject({ argv: ['python3', '/home/ann/hooks/ctx.py'], matcher: null, timeoutS: 60 });
  });

  it('matches the whole tool name', () => {
    const { hooks } = readShellHooks({ post_tool_call: [{ matcher: 'terminal|read_.*', command: 'x' }] }, options);
    const re = hooks[0]?.matcherRegex;
    expect(re?.test('terminal')).toBe(true);
    expect(re?.test('read_file')).toBe(true);
    expect(re?.test('terminal2')).toBe(false);
    expect(re?.test('my_terminal')).toBe(false);
  });

  it('uses matchers on the tool events only, derived from the hook table', () => {
    expect(TOOL_EVENTS).toEqual(['pre_tool_call', 'post_tool_call', 'transform_tool_result']);
    const { hooks, warnings } = readShellHooks({ on_session_start: [{ matcher: 'terminal', command: 'x' }] }, options);
    expect(hooks[0]?.matcher).toBeNull();
    expect(warnings).toEqual([
      '/h/config.yaml: hooks.on_session_start[0]: "matcher" is ignored for on_session_start: only tool events (pre_tool_call, post_tool_call, transform_tool_result) use it',
    ]);
  });

  it('skips a misspelt event with "did you mean", naming config.yaml, the event and each entry index', () => {
    const { hooks, warnings } = readShellHooks(
      { pre_tool_cal: [{ command: 'a' }, { command: 'b' }], post_tool_call: [{ command: 'c' }] },
      options,
    );
    expect(hooks.map((h) => h.command)).toEqual(['c']);
    expect(warnings).toEqual([
      '/h/config.yaml: hooks.pre_tool_cal[0]: unknown event "pre_tool_cal", did you mean "pre_tool_call"?; entry skipped',
      '/h/config.yaml: hooks.pre_tool_cal[1]: unknown event "pre_tool_cal", did you mean "pre_tool_call"?; entry skipped',
    ]);
  });

  it('lists the valid events when nothing is close', () => {
    const { warnings } = readShellHooks({ zzzzzzzzzz: [{ command: 'a' }] }, options);
    expect(warnings[0]).toMatch(
      /hooks\.zzzzzzzzzz\[0\]: unknown event "zzzzzzzzzz" \(valid events: pre_tool_call, .*\); entry skipped$/,
    );
  });

  it('skips an invalid matcher regex, an unsplittable command and an empty one', () => {
    const { hooks, warnings } = readShellHooks(
      {
        pre_tool_call: [
          { matcher: 'terminal(', command: 'a' },
          { command: 'echo "unclosed' },
          { command: '   ' },
          { command: 'ok' },
        ],
      },
      options,
    );
    expect(hooks.map((h) => [h.command, h.index])).toEqual([['ok', 3]]);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      /^\/h\/config\.yaml: hooks\.pre_tool_call\[0\]: matcher "terminal\(" is not a valid regular expression .*; entry skipped$/,
    );
    expect(warnings[1]).toMatch(
      /^\/h\/config\.yaml: hooks\.pre_tool_call\[1\]: command cannot be split into words: no closing quotation/,
    );
    expect(warnings[2]).toBe('/h/config.yaml: hooks.pre_tool_call[2]: "command" is missing or empty; entry skipped');
  });

  it('clamps a timeout over 300 s with a warning', () => {
    const { hooks, warnings } = readShellHooks({ post_llm_call: [{ command: 'a', timeout: 900 }] }, options);
    expect(hooks[0]?.timeoutS).toBe(300);
    expect(warnings).toEqual([
      '/h/config.yaml: hooks.post_llm_call[0]: timeout 900 s is over the 300 s maximum; clamped to 300',
    ]);
    expect(readShellHooks({ post_llm_call: [{ command: 'a', timeout: 300 }] }, options).hooks[0]?.timeoutS).toBe(300);
    expect(readShellHooks({ post_llm_call: [{ command: 'a', timeout: 0.5 }] }, options).hooks[0]?.timeoutS).toBe(0.5);
  });
});
