// The web-provider kit's readers of API answers: result lists as objects, hits from them, counts within a service's range.
import { describe, expect, it } from 'vitest';
import { asObjects, asString, countWithin, hitsOf, searchAnswer } from '../../src/index.js';

describe('asObjects', () => {
  it('keeps the objects of an array, an item that is not one as {}, and nothing of what is no array', () => {
    expect(asObjects([{ a: 1 }, 'x', null, [2], { b: 2 }])).toEqual([{ a: 1 }, {}, {}, {}, { b: 2 }]);
    expect(asObjects({ results: [] })).toEqual([]);
    expect(asObjects(undefined)).toEqual([]);
  });
});

describe('countWithin', () => {
  it('brings a count within 1..max', () => {
    expect(countWithin(5, 20)).toBe(5);
    expect(countWithin(50, 20)).toBe(20);
    expect(countWithin(0, 20)).toBe(1);
    expect(countWithin(-3, 5)).toBe(1);
  });
});

describe('hitsOf', () => {
  it("reads each item's title and url as text and its description with the provider's reader", () => {
    const results = [
      { title: 'One', url: 'https://a.example', content: 'first' },
      { title: 2, url: null, content: 'second' },
      'not an object',
    ];
    expect(hitsOf(results, (r) => asString(r.content))).toEqual([
      { title: 'One', url: 'https://a.example', description: 'first' },
      { title: '2', url: '', description: 'second' },
      { title: '', url: '', description: '' },
    ]);
    expect(hitsOf({ not: 'a list' }, () => 'x')).toEqual([]);
  });

  it('reads the title with `text` when given (markup stripped, say), and its hits number in searchAnswer', async () => {
    const strip = (v: unknown) => asString(v).replace(/<[^>]*>/g, '');
    const hits = hitsOf([{ title: '<b>Bold</b>', url: 'https://b.example', d: '<i>x</i>' }], (r) => strip(r.d), strip);
    expect(hits).toEqual([{ title: 'Bold', url: 'https://b.example', description: 'x' }]);
    expect(await searchAnswer(async () => hits)).toEqual({
      success: true,
      data: { web: [{ title: 'Bold', url: 'https://b.example', description: 'x', position: 1 }] },
    });
  });
});
