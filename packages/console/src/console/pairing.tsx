// Pairing: pending requests (approve / deny), approved users (revoke), the allowlists from the environment.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from '../shared/api.js';
import { fmtTime } from '../shared/format.js';
import type { Pairing as PairingData } from '../shared/types.js';
import { useAction } from './use-action.js';

const REFRESH_MS = 3000;

export function Pairing() {
  const [data, setData] = useState<PairingData | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const action = useAction();
  const load = useCallback(() => {
    getJson<PairingData>('/console/api/pairing')
      .then((d) => {
        setData(d);
        setLoadError(null);
      })
      .catch((e: Error) => setLoadError(e.message));
  }, []);
  useEffect(() => {
    load();
    const t = setInterval(load, REFRESH_MS);
    return () => clearInterval(t);
  }, [load]);

  const allow = Object.entries(data?.allowlists ?? {});
  return (
    <section>
      <h2>Pairing</h2>
      {loadError ? <p class="error">{loadError}</p> : null}
      {action.error ? <p class="error">{action.error}</p> : null}
      {action.message ? <p class="ok">{action.message}</p> : null}
      <h3>Pending requests</h3>
      {data && data.pending.length === 0 ? <p class="muted">No pending request.</p> : null}
      <table>
        <tbody>
          {(data?.pending ?? []).map((p) => (
            <tr key={`${p.platform}:${p.code}`} data-testid={`pending-${p.platform}-${p.userId}`}>
              <td>{p.platform}</td>
              <td>{p.userName ?? ''}</td>
              <td>
                <code>{p.userId}</code>
              </td>
              <td>
                code <code>{p.code}</code>
              </td>
              <td class="muted">expires {fmtTime(p.expiresAt)}</td>
              <td>
                <button
                  type="button"
                  onClick={() =>
                    action.run(
                      `Approved ${p.platform} user ${p.userId}`,
                      () => postJson('/console/api/pairing/approve', { platform: p.platform, code: p.code }),
                      load,
                    )
                  }
                >
                  Approve
                </button>{' '}
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    action.run(
                      `Denied ${p.platform} user ${p.userId}`,
                      () => postJson('/console/api/pairing/deny', { platform: p.platform, code: p.code }),
                      load,
                    )
                  }
                >
                  Deny
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Approved users</h3>
      {data && data.approved.length === 0 ? <p class="muted">Nobody is approved yet.</p> : null}
      <table>
        <tbody>
          {(data?.approved ?? []).map((a) => (
            <tr key={`${a.platform}:${a.userId}`} data-testid={`approved-${a.platform}-${a.userId}`}>
              <td>{a.platform}</td>
              <td>{a.userName ?? ''}</td>
              <td>
                <code>{a.userId}</code>
              </td>
              <td class="muted">since {fmtTime(a.approvedAt)}</td>
              <td>
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    action.run(
                      `Revoked ${a.platform} user ${a.userId}`,
                      () => postJson('/console/api/pairing/revoke', { platform: a.platform, userId: a.userId }),
                      load,
                    )
                  }
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Allowlists</h3>
      <p class="muted">
        From <code>&lt;PLATFORM&gt;_ALLOWED_USERS</code> and <code>GATEWAY_ALLOWED_USERS</code> (read-only here).
      </p>
      {allow.length === 0 ? <p class="muted">No allowlist is set.</p> : null}
      <ul>
        {allow.map(([k, ids]) => (
          <li key={k}>
            <strong>{k}</strong>: {ids.length > 0 ? ids.join(', ') : '(empty)'}
          </li>
        ))}
      </ul>
    </section>
  );
}
