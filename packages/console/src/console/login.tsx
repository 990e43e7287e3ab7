// The login form: shown when the gateway asks for a login and this browser has no session.
import { useState } from 'preact/hooks';
import { postJson } from '../shared/api.js';

export function Login({ onLoggedIn }: { onLoggedIn: (csrf: string, actor: string) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <main class="login">
      <h1>Hermes console</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            const r = await postJson<{ csrf: string; actor: string }>('/console/api/login', { token });
            setToken('');
            onLoggedIn(r.csrf, r.actor);
          } catch (err) {
            setError((err as Error).message);
          }
        }}
      >
        <label>
          Token (<code>API_SERVER_KEY</code> or <code>gateway.console.token</code>)
          <input
            type="password"
            autocomplete="current-password"
            value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Log in</button>
        {error ? <p class="error">{error}</p> : null}
      </form>
    </main>
  );
}
