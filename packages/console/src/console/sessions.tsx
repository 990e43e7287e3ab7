// Sessions: the list with a search box, one session's transcript, Stop and Reset.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from '../shared/api.js';
import { fmtTime } from '../shared/format.js';
import type { ChatMessage, SessionRow } from '../shared/types.js';
import { Transcript } from './transcript.js';
import { useAction } from './use-action.js';

export function Sessions({ openId }: { openId: string | null }) {
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<SessionRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback((query: string) => {
    const qs = new URLSearchParams({ limit: '50' });
    if (query.trim()) qs.set('q', query.trim());
    getJson<{ sessions: SessionRow[] }>(`/console/api/sessions?${qs}`)
      .then((d) => {
        setRows(d.sessions);
        setError(null);
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(() => load(''), [load]);

  if (openId) return <SessionView id={openId} />;
  return (
    <section>
      <h2>Sessions</h2>
      <form
        class="search"
        onSubmit={(e) => {
          e.preventDefault();
          load(q);
        }}
      >
        <input
          type="search"
          placeholder="Search transcripts"
          value={q}
          onInput={(e) => setQ((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Search</button>
      </form>
      {error ? <p class="error">{error}</p> : null}
      {rows && rows.length === 0 ? <p class="muted">No session found.</p> : null}
      <table>
        <thead>
          <tr>
            <th>session</th>
            <th>platform</th>
            <th>messages</th>
            <th>updated</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((s) => (
            <tr key={s.id}>
              <td>
                <a href={`#/sessions/${encodeURIComponent(s.id)}`}>{s.title || s.key}</a>
              </td>
              <td>{s.platform}</td>
              <td>{s.messages}</td>
              <td>{fmtTime(s.updatedAt)}</td>
              <td>{s.running ? <span class="state state-running">running</span> : s.endedAt ? 'ended' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function SessionView({ id }: { id: string }) {
  const [data, setData] = useState<{ session: SessionRow; messages: ChatMessage[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  const load = useCallback(() => {
    getJson<{ session: SessionRow; messages: ChatMessage[] }>(`/console/api/sessions/${encodeURIComponent(id)}`)
      .then(setData)
      .catch((e: Error) => setError(e.message));
  }, [id]);
  useEffect(load, [load]);
  // the contract's `key`; `sessionKey` as the store names it, should a server send that
  const key = data?.session.key ?? data?.session.sessionKey;
  return (
    <section>
      <p>
        <a href="#/sessions">← all sessions</a>
      </p>
      <h2>{data?.session.title || key || id}</h2>
      {error ? <p class="error">{error}</p> : null}
      {action.error ? <p class="error">{action.error}</p> : null}
      {action.message ? <p class="ok">{action.message}</p> : null}
      {key ? (
        <p>
          <code>{key}</code> · {data?.session.platform} · started {fmtTime(data?.session.createdAt)}{' '}
          <button
            type="button"
            onClick={() =>
              action.run(
                'Stop asked',
                () => postJson<{ stopped: boolean }>('/console/api/sessions/stop', { key }),
                load,
              )
            }
          >
            Stop
          </button>{' '}
          <button
            type="button"
            class="danger"
            onClick={() => action.run('Session reset', () => postJson('/console/api/sessions/reset', { key }), load)}
          >
            Reset
          </button>
        </p>
      ) : null}
      {data ? <Transcript messages={data.messages} /> : null}
    </section>
  );
}
