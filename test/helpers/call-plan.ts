// A fake model that reads its plan from the prompt: `CALL [{"name": ..., "arguments": ...}]` makes it
// call those tools; once the tool results are in, it answers with them, one per line. Runs that
// carry their own plan are independent of each other, so they can go in parallel.
import type { ChatMessage } from '@hermes/protocol';
import type { FakeOpenAI, FakeToolCall } from '../fakes/openai-server.js';

export function answerWithCallPlan(model: FakeOpenAI): void {
  model.respond((req) => {
    const messages = (req.body as { messages: ChatMessage[] }).messages;
    // this turn's: after the last user message (a chat's history holds earlier turns' results)
    const lastUser = messages.map((m) => m.role).lastIndexOf('user');
    const results = messages
      .slice(lastUser + 1)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    if (results.length > 0) return { text: results.join('\n') };
    const prompt = messages[lastUser]?.content ?? '';
    const plan = /CALL (\[.*\])/s.exec(String(prompt))?.[1];
    return plan ? { toolCalls: JSON.parse(plan) as FakeToolCall[] } : { text: 'no plan' };
  });
}
