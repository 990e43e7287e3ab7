// A reasoning model's thinking, through a real model client against the fake server: in a field of
// its own (`reasoning_content`) or inline (`<think>`), streamed or not, it is the turn's
// `reasoning`, never its answer, its streamed text, its stored messages or the next request.
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { client, echoTool, recordingBus, turn } from './helpers.js';

const openai = useFakeOpenAI();
const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const allRequestText = () =>
  JSON.stringify(chatRequests().map((r) => (r.body as { messages: ChatMessage[] }).messages));

describe('a turn of a reasoning model', () => {
  for (const streamed of [false, true]) {
    it(`keeps reasoning_content and think blocks out of the answer and the history (${streamed ? 'streamed' : 'not streamed'})`, async () => {
      const { bus } = recordingBus();
      openai.server.script(
        { reasoning: 'I should echo first.', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
        { text: '<think>\nThe tool said x.\n</think>\n\nThe answer is x.' },
      );
      const pieces: string[] = [];
      const result = await turn({
        client: client(openai.server.url, bus),
        hooks: bus,
        tools: [echoTool],
        ...(streamed ? { onDelta: (t: string) => pieces.push(t) } : {}),
      });
      expect(result.status).toBe('completed');
      expect(result.finalText).toBe('The answer is x.');
      expect(result.reasoning).toBe('I should echo first.\n\nThe tool said x.');
      if (streamed) expect(pieces.join('')).toBe('The answer is x.');
      const stored = JSON.stringify(result.messages);
      expect(stored).not.toContain('I should echo first');
      expect(stored).not.toContain('The tool said x.');
      // the second request (after the tool) carries the assistant step without its thinking
      expect(chatRequests()).toHaveLength(2);
      expect(allRequestText()).not.toContain('I should echo first');
    });
  }
});
