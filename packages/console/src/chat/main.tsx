// The web chat: a message list, an input and a file picker; bot messages and their edits arrive over SSE.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson, postForm, postJson, setCsrf } from '../shared/api.js';

interface Line {
  id: string;
  from: 'me' | 'bot';
  text: string;
  failed?: boolean;
}

/** `GET /chat/api/session`: who this browser is to the chat, and its CSRF token */
interface ChatSession {
  userId: string;
  operator: boolean;
  csrf: string;
}

/** a bot message: appended when new (a replayed one is not doubled), its text replaced by an edit */
function upsert(lines: Line[], id: string, text: string): Line[] {
  return lines.some((l) => l.id === id)
    ? lines.map((l) => (l.id === id ? { ...l, text } : l))
    : [...lines, { id, from: 'bot', text }];
}

function parse(data: string): { id: string | number; text: string } | null {
  try {
    const v = JSON.parse(data) as { id?: unknown; text?: unknown };
    return (typeof v.id === 'string' || typeof v.id === 'number') && typeof v.text === 'string'
      ? { id: v.id, text: v.text }
      : null;
  } catch {
    return null;
  }
}

function Chat() {
  const [lines, setLines] = useState<Line[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const endRef = useRef<HTMLLIElement>(null);
  const mine = useRef(0);

  useEffect(() => {
    let es: EventSource | null = null;
    let closed = false;
    // the session first: it sets the browser id cookie the stream and the POSTs then share
    getJson<ChatSession>('/chat/api/session')
      .then((s) => setCsrf(s.csrf))
      .catch((e: Error) => setError(e.message))
      .finally(() => {
        if (closed) return;
        es = new EventSource('/chat/api/stream');
        es.onopen = () => setLive(true);
        es.onerror = () => setLive(false);
        es.addEventListener('message', (e) => {
          const m = parse((e as MessageEvent<string>).data);
          if (m) setLines((prev) => upsert(prev, `bot:${m.id}`, m.text));
        });
        es.addEventListener('edit', (e) => {
          const m = parse((e as MessageEvent<string>).data);
          if (m) setLines((prev) => upsert(prev, `bot:${m.id}`, m.text));
        });
      });
    return () => {
      closed = true;
      es?.close();
    };
  }, []);
  useEffect(() => endRef.current?.scrollIntoView?.({ block: 'end' }), [lines]);

  async function send(e: Event): Promise<void> {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    const body = text.trim();
    if (!body && !file) return;
    setError(null);
    mine.current += 1;
    const id = `me:${mine.current}`;
    const shown = file ? `${body}${body ? ' ' : ''}[${file.name}]` : body;
    // shown at once: the answer may stream in before the POST has been answered
    setLines((prev) => [...prev, { id, from: 'me', text: shown }]);
    try {
      if (file) {
        const form = new FormData();
        form.set('text', body);
        form.set('file', file, file.name);
        await postForm('/chat/api/messages', form);
      } else {
        await postJson('/chat/api/messages', { text: body });
      }
      setText('');
      if (fileRef.current) fileRef.current.value = '';
    } catch (err) {
      setLines((prev) => prev.map((l) => (l.id === id ? { ...l, failed: true } : l)));
      setError(`Your message was not sent: ${(err as Error).message}`);
    }
  }

  return (
    <main class="chat">
      <header>
        <h1>Hermes chat</h1>
        <span class="muted">{live ? 'connected' : 'connecting…'}</span>
      </header>
      <ol class="messages" data-testid="messages">
        {lines.map((l) => (
          <li key={l.id} class={`bubble bubble-${l.from}${l.failed ? ' failed' : ''}`} data-from={l.from}>
            {l.text}
          </li>
        ))}
        <li ref={endRef} class="end" />
      </ol>
      {error ? <p class="error">{error}</p> : null}
      <form class="composer" onSubmit={send}>
        <input
          type="text"
          name="text"
          placeholder="Message"
          aria-label="Message"
          autocomplete="off"
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <input type="file" ref={fileRef} aria-label="Attach a file" />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}

const root = document.getElementById('app');
if (root) render(<Chat />, root);
