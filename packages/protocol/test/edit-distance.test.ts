// One edit distance for every "did you mean": config keys (closestMatch), plugin names (closest), CLI commands.
import { closestMatch } from '@hermes/config';
import { closest } from '@hermes/plugins';
import { editDistance } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('abc', 'cab')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('suggests only close candidates', () => {
    expect(closestMatch('pre_tool_cal', ['post_tool_call', 'pre_tool_call'])).toBe('pre_tool_call');
    expect(closestMatch('modle', ['model', 'agent'])).toBe('model');
    expect(closestMatch('zzzzzz', ['model', 'agent'])).toBeUndefined();
  });

  it('counts a swap as one edit for plugin names too (the plugins package once had its own copy)', () => {
    expect(closest('teh', ['the', 'tool'])).toBe('the');
    expect(closest('pre_tool_cal', ['post_tool_call', 'pre_tool_call'])).toBe('pre_tool_call');
  });
});
