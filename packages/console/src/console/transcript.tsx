// One session's transcript: user and assistant turns, each tool call folded in a <details>.
import type { ChatMessage } from '../shared/types.js';

export function Transcript({ messages }: { messages: ChatMessage[] }) {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.tool_call_id, m.content);
  return (
    <ol class="transcript">
      {messages.map((m, i) => {
        if (m.role === 'tool') return null;
        return (
          <li key={i} class={`msg msg-${m.role}`}>
            <span class="role">{m.role}</span>
            {m.content ? <pre class="text">{m.content}</pre> : null}
            {m.role === 'assistant'
              ? (m.tool_calls ?? []).map((c) => (
                  <details key={c.id} class="tool-call">
                    <summary>
                      tool call <code>{c.function.name}</code>
                    </summary>
                    <pre>{c.function.arguments}</pre>
                    <p class="muted">result</p>
                    <pre>{results.get(c.id) ?? '(no result)'}</pre>
                  </details>
                ))
              : null}
          </li>
        );
      })}
    </ol>
  );
}
