// The scripted model of the long-chat acceptance test: it answers chats, calls a tool when asked,
// summarizes by carrying the lines that hold facts, and answers "what is my cat called?" only from
// what it was sent. Plus the checks every request it received must pass.
import { messagesTokens, SUMMARY_INSTRUCTIONS, textTokens } from '@hermes/agent';
import type { ChatMessage } from '@hermes/protocol';
import type { RecordedRequest, Reply } from '../fakes/openai-server.js';

export const FACT = 'FACT: my cat is called Tabby';
/** given on turn 3, outside the kept first exchange: only the summary can carry it to turn 500 */
export const LATER_FACT = 'FACT: my dog is called Rex';
const PAD = ' Some chatter to make the history grow.'.repeat(5);

/** What the user says on turn `n` (1-based). */
export function userText(n: number): string {
  if (n === 1) return `Hello! ${FACT}. Please remember it.`;
  if (n === 3) return `Also, ${LATER_FACT}. Please remember that too.${PAD}`;
  if (n % 7 === 0) return `Turn ${n}: please use the echo tool twice.${PAD}`;
  return `Turn ${n}: tell me something.${PAD}`;
}

export const QUESTION = 'What are my cat and my dog called?';

function messagesOf(request: RecordedRequest): ChatMessage[] {
  return (request.body?.messages ?? []) as ChatMessage[];
}

/** The model's answer to one request. */
export function scriptedModel(request: RecordedRequest): Reply {
  const messages = messagesOf(request);
  if (messages[0]?.content === SUMMARY_INSTRUCTIONS) {
    const text = messages.map((m) => m.content ?? '').join('\n');
    const facts = [...new Set(text.split('\n').filter((line) => line.includes('FACT:')))];
    const kept = facts.map((line) => line.slice(line.indexOf('FACT:')).replace(/\..*$/, ''));
    return { text: `The user chatted.${kept.map((f) => `\n${f}`).join('')}` };
  }
  const last = messages[messages.length - 1];
  const sent = JSON.stringify(messages);
  if (last?.role === 'user' && last.content.includes(QUESTION)) {
    const cat = sent.includes('Tabby') ? 'Your cat is called Tabby.' : 'I do not know your cat.';
    const dog = sent.includes('Rex') ? 'Your dog is called Rex.' : 'I do not know your dog.';
    return { text: `${cat} ${dog}` };
  }
  if (last?.role === 'user' && last.content.includes('echo tool')) {
    return { toolCalls: [{ name: 'echo', arguments: { text: 'first call' } }] };
  }
  if (last?.role === 'tool') {
    const calls = messages.filter((m) => m.role === 'tool').length;
    // the second tool round of the turn, then the answer
    const lastUser = messages.map((m) => m.role).lastIndexOf('user');
    const toolsThisTurn = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
    if (toolsThisTurn < 2 && calls > 0) {
      return { toolCalls: [{ name: 'echo', arguments: { text: 'second call' } }] };
    }
    return { text: `Both tools answered.${PAD}` };
  }
  return { text: `Here is something.${PAD}` };
}

/** The problems of one request: over the limit (the agent's estimate, the JSON size), or a tool message without its call. */
export function requestProblems(request: RecordedRequest, contextLength: number, index: number): string[] {
  const problems: string[] = [];
  const messages = messagesOf(request);
  const tools = (request.body?.tools ?? []) as unknown[];
  const estimate = messagesTokens(messages) + textTokens(JSON.stringify(tools));
  if (estimate > contextLength) problems.push(`request ${index}: estimate ${estimate} > ${contextLength}`);
  // conservative: four characters of the JSON body a token (the JSON spells out every message in full)
  const chars = JSON.stringify(messages).length + JSON.stringify(tools).length;
  if (chars > contextLength * 4) problems.push(`request ${index}: ${chars} JSON characters > ${contextLength * 4}`);
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!open.has(m.tool_call_id)) problems.push(`request ${index}: tool message ${i} without its call`);
      open.delete(m.tool_call_id);
      continue;
    }
    if (open.size > 0) problems.push(`request ${index}: message ${i} before the results of ${[...open].join(', ')}`);
    open = new Set(m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []);
  }
  if (open.size > 0) problems.push(`request ${index}: tool calls without results at the end`);
  return problems;
}
