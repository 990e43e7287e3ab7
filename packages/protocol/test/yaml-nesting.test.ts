import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MAX_YAML_NESTING, yamlNestingTooDeep } from '../src/yaml-nesting.js';

const nested = (depth: number) => `x: ${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('yamlNestingTooDeep', () => {
  it('lets real files through: block style, flow maps and lists, quotes and comments with brackets', () => {
    const text = [
      'model: {default: gpt, base_url: "http://127.0.0.1:1/v1"}',
      'terminal:',
      "  dangerous_patterns_extra: ['rm\\s+-rf [a-z]{2,}', \"[[[[\", 'it''s [']",
      '# a comment with [[[[[[[[ brackets',
      "description: don't [ count this as a quote",
      'gateway:',
      '  platforms:',
      '    telegram: {mode: polling, allowed_users: [1, 2, [3, [4]]]}',
    ].join('\n');
    expect(() => parse(text)).not.toThrow();
    expect(yamlNestingTooDeep(text)).toBeNull();
    expect(yamlNestingTooDeep(nested(MAX_YAML_NESTING))).toBeNull();
  });

  it('finds flow nesting past the limit and names its line, before any parser runs', () => {
    expect(yamlNestingTooDeep(nested(MAX_YAML_NESTING + 1))).toBe(1);
    expect(yamlNestingTooDeep(`a: 1\nb: 2\n${nested(20_000)}`)).toBe(3);
    expect(yamlNestingTooDeep(`x: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}`)).toBe(1);
    // spread over lines, closed brackets do not count
    expect(yamlNestingTooDeep(`x: [[]]\ny:\n${'[\n'.repeat(100)}`)).toBe(3 + MAX_YAML_NESTING);
  });

  it('does not let a quote hide nesting: an unclosed quote runs to the end, a quote inside a word opens nothing', () => {
    expect(yamlNestingTooDeep(`a: it's\n${nested(100)}`)).toBe(2);
    expect(yamlNestingTooDeep(`a: "x\\"]]]]" \n${nested(100)}`)).toBe(2);
  });
});
