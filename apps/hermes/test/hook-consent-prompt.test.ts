import { describe, expect, it } from 'vitest';
import { consentQuestion } from '../src/hook-consent-prompt.js';

describe('the shell-hook consent question', () => {
  it('names the event, matcher, command and script hash, and defaults to no', () => {
    const text = consentQuestion({
      event: 'pre_tool_call',
      command: '~/.hermes/agent-hooks/x.sh',
      matcher: 'terminal',
      script: { path: '/home/ann/.hermes/agent-hooks/x.sh', sha256: 'abcdef0123456789abcdef' },
      state: 'not_allowed',
    });
    expect(text).toBe(
      [
        'Shell hook for pre_tool_call (matcher: terminal):',
        '  command: ~/.hermes/agent-hooks/x.sh',
        '  script:  /home/ann/.hermes/agent-hooks/x.sh (sha256 abcdef012345)',
        'It runs with your permissions every time the event fires. Allow it? [y/N] ',
      ].join('\n'),
    );
  });

  it('says when the script changed since it was allowed', () => {
    const text = consentQuestion({
      event: 'pre_llm_call',
      command: 'true',
      matcher: null,
      script: null,
      state: 'script_changed',
    });
    expect(text).toContain('The script changed since you allowed it.');
    expect(text).not.toContain('script: ');
  });
});
