// The operator console: a login when one is needed, then one page per hash route.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, postJson, setCsrf } from '../shared/api.js';
import type { SessionInfo } from '../shared/types.js';
import { Login } from './login.js';
import { Logs } from './logs.js';
import { Overview } from './overview.js';
import { Pairing } from './pairing.js';
import { Plugins } from './plugins.js';
import { Sessions } from './sessions.js';
import { Trust } from './trust.js';
import { useEvents } from './use-events.js';
import { PAGES, useRoute } from './use-route.js';

function App() {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJson<SessionInfo>('/console/api/session')
      .then((s) => {
        setCsrf(s.csrf);
        setSession(s);
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  const loggedIn = session?.loggedIn === true;
  const live = useEvents(loggedIn);
  const route = useRoute();

  if (error) return <p class="error">{error}</p>;
  if (!session) return <p class="muted">Loading…</p>;
  if (session.loginRequired && !session.loggedIn) {
    return (
      <Login
        onLoggedIn={(csrf, actor) => {
          setCsrf(csrf);
          setSession({ ...session, loggedIn: true, csrf, actor });
        }}
      />
    );
  }
  return (
    <>
      <header>
        <h1>Hermes</h1>
        <nav>
          {PAGES.map((p) => (
            <a key={p.page} href={`#/${p.page}`} class={route.page === p.page ? 'active' : ''}>
              {p.label}
            </a>
          ))}
        </nav>
        <span class="muted who">
          {live.connected ? 'live' : 'offline'} · {session.actor ?? ''}
          {session.loginRequired ? (
            <button
              type="button"
              class="link"
              onClick={async () => {
                await postJson('/console/api/logout', {}).catch(() => undefined);
                setCsrf(null);
                setSession({ ...session, loggedIn: false, csrf: null, actor: null });
              }}
            >
              Log out
            </button>
          ) : null}
        </span>
      </header>
      <main>
        {route.page === 'overview' ? <Overview live={live.platforms} metrics={live.metrics} /> : null}
        {route.page === 'pairing' ? <Pairing /> : null}
        {route.page === 'sessions' ? <Sessions openId={route.id} /> : null}
        {route.page === 'plugins' ? <Plugins /> : null}
        {route.page === 'trust' ? <Trust /> : null}
        {route.page === 'logs' ? <Logs live={live.logs} /> : null}
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
