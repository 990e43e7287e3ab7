// A run of frozen messages keeps its figure from one list to the next: extended when the list grows,
// read shorter when it stops earlier, started over when a message in it changed.
import { describe, expect, it } from 'vitest';
import { completionJson } from '../src/completion-json.js';
import { messagesTokens } from '../src/context/token-estimate.js';
import { FrozenRuns } from '../src/frozen-runs.js';

const msg = (content: string) => Object.freeze({ role: 'user' as const, content });

function countingRuns() {
  const pushed: string[] = [];
  const runs = new FrozenRuns<string[], string>({
    create: () => [],
    push: (state, m) => {
      const { content } = m as { content: string };
      pushed.push(content);
      state.push(content);
    },
    read: (state, length) => state.slice(0, length).join(''),
  });
  return { runs, pushed };
}

describe('FrozenRuns', () => {
  it('extends a run by the messages added since, reads a shorter one, starts over after a change', () => {
    const { runs, pushed } = countingRuns();
    const [a, b, c, d] = [msg('a'), msg('b'), msg('c'), msg('d')];
    const open = { role: 'user', content: 'open' };
    expect(runs.read([a, b, open], 0)).toEqual({ length: 2, value: 'ab' });
    expect(runs.read([open, a, b, c, d], 1)).toEqual({ length: 4, value: 'abcd' });
    expect(pushed).toEqual(['a', 'b', 'c', 'd']); // a and b were not looked at again
    expect(runs.read([a, b, open], 0)).toEqual({ length: 2, value: 'ab' });
    expect(runs.read([open], 0)).toBeNull();
    const x = msg('x');
    expect(runs.read([a, x, c], 0)).toEqual({ length: 3, value: 'axc' }); // b replaced: started over
    expect(pushed).toEqual(['a', 'b', 'c', 'd', 'a', 'x', 'c']);
  });

  it('the request body and the token estimate of a growing frozen history equal those computed afresh', () => {
    const history: object[] = [];
    for (let i = 0; i < 50; i++) {
      history.push(msg(`message ${i} "quoted" é`));
      const turn = { role: 'user' as const, content: `turn ${i}` };
      const messages = [{ role: 'system' as const, content: 'sys' }, ...history, turn] as never[];
      const body = { model: 'm', messages };
      expect(completionJson(body)).toBe(JSON.stringify({ model: 'm', messages: JSON.parse(JSON.stringify(messages)) }));
      const fresh = JSON.parse(JSON.stringify(messages)) as never[];
      expect(messagesTokens(messages)).toBe(messagesTokens(fresh));
    }
  });
});
