import { describe, expect, it } from 'vitest';
import { ReasoningStreamFilter, splitReasoning } from '../src/reasoning.js';

describe('splitReasoning', () => {
  it('takes think, thinking and reasoning blocks out of the answer', () => {
    expect(splitReasoning('<think>\nthe user wants 4\n</think>\n\nIt is 4.')).toEqual({
      text: 'It is 4.',
      reasoning: 'the user wants 4',
    });
    expect(splitReasoning('<Thinking>a</Thinking>Yes. <reasoning>b</reasoning>Sure.')).toEqual({
      text: 'Yes. Sure.',
      reasoning: 'a\n\nb',
    });
  });

  it('reads a closing tag with no opening one (R1 distills) and an unclosed block (cut off)', () => {
    expect(splitReasoning('counting the rs...\n</think>\nThree.')).toEqual({
      text: 'Three.',
      reasoning: 'counting the rs...',
    });
    expect(splitReasoning('Sure. <think>still going')).toEqual({ text: 'Sure.', reasoning: 'still going' });
    expect(splitReasoning('<think>only thinking</think>')).toEqual({ text: null, reasoning: 'only thinking' });
  });

  it('leaves an answer without thinking exactly as it was, other tags included', () => {
    expect(splitReasoning('  use <div> and </span> here  ')).toEqual({
      text: '  use <div> and </span> here  ',
      reasoning: null,
    });
    expect(splitReasoning(null)).toEqual({ text: null, reasoning: null });
  });
});

describe('ReasoningStreamFilter', () => {
  const run = (deltas: string[]) => {
    const filter = new ReasoningStreamFilter();
    return deltas.map((d) => filter.push(d)).join('') + filter.end();
  };

  it('never lets a think block through, even with its tags cut across deltas', () => {
    expect(run(['<thi', 'nk>secret pl', 'an</th', 'ink>\n', 'Hello', ' there'])).toBe('Hello there');
    expect(run(['<think>a</think>', 'x <', 'b> y'])).toBe('x <b> y');
    expect(run(['a < b and c <', ''])).toBe('a < b and c <');
  });

  it('holds nothing back that is not a tag', () => {
    const filter = new ReasoningStreamFilter();
    expect(filter.push('Hello ')).toBe('Hello ');
    expect(filter.push('<')).toBe('');
    expect(filter.push('3')).toBe('<3');
    expect(filter.push(' <thinking>x')).toBe(' ');
    expect(filter.push('y</thinking>z')).toBe('z');
  });
});
