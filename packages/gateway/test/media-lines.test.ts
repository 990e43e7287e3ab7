import { describe, expect, it } from 'vitest';
import { extractMediaLines } from '../src/delivery/media/media-lines.js';

describe('extractMediaLines', () => {
  it('leaves an answer without MEDIA lines as it is (the same string)', () => {
    const answer = 'Just **text**\n\nwith paragraphs';
    const out = extractMediaLines(answer);
    expect(out.text).toBe(answer);
    expect(out.refs).toEqual([]);
  });

  it('takes MEDIA lines out, in order, trimming spaces, quotes and backticks', () => {
    const out = extractMediaLines(
      'Here:\nMEDIA: /tmp/a.png\n  MEDIA:`/tmp/b c.pdf`  \nMEDIA: https://x.example/c.jpg\nbye',
    );
    expect(out.refs).toEqual(['/tmp/a.png', '/tmp/b c.pdf', 'https://x.example/c.jpg']);
    expect(out.text).toBe('Here:\nbye');
  });

  it('keeps MEDIA lines inside code fences, and mentions in the middle of a line', () => {
    const answer = 'Write it as:\n```\nMEDIA: /tmp/x.png\n```\nthe word MEDIA: in a sentence';
    expect(extractMediaLines(answer)).toEqual({ text: answer, refs: [] });
  });

  it('an answer of MEDIA lines only has no text left', () => {
    expect(extractMediaLines('MEDIA: /tmp/a.png\r\nMEDIA: /tmp/b.png')).toEqual({
      text: '',
      refs: ['/tmp/a.png', '/tmp/b.png'],
    });
  });

  it('an empty MEDIA line is text, not a reference', () => {
    expect(extractMediaLines('MEDIA:   \nok').refs).toEqual([]);
  });
});
