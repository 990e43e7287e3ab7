// Trust: what the gateway loads or runs at start only with the operator's consent (plugins, MCP
// servers, skills, hook hatches, BOOT.md), pending and approved, with Approve / Revoke; the same
// HERMES_HOME/trust.json as `hermes trust`. A change takes effect at the next start.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from '../shared/api.js';
import type { TrustInfo, TrustRow } from '../shared/types.js';
import { useAction } from './use-action.js';

const STATE_WORDS: Record<TrustRow['state'], string> = {
  approved: 'approved',
  new: 'pending (new)',
  changed: 'pending (changed since approval)',
};

export function Trust() {
  const [data, setData] = useState<TrustInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  const load = useCallback(() => {
    getJson<TrustInfo>('/console/api/trust')
      .then(setData)
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(load, [load]);
  async function act(id: string, verb: 'approve' | 'revoke'): Promise<void> {
    const label = verb === 'approve' ? 'approved as it is now' : 'approval revoked';
    await action.run(`${id} ${label}`, () => postJson(`/console/api/trust/${verb}`, { id }), load);
  }
  const items = data?.items ?? [];
  return (
    <section>
      <h2>Trust</h2>
      <p class="muted">
        Approving records the item's content as it is now. Changes take effect at the next start of the gateway.
      </p>
      {error ? <p class="error">{error}</p> : null}
      {action.error ? <p class="error">{action.error}</p> : null}
      {action.message ? <p class="ok">{action.message}</p> : null}
      {data && items.length === 0 ? <p class="muted">Nothing needs consent.</p> : null}
      <table>
        <tbody>
          {items.map((i) => (
            <tr key={i.id}>
              <td>
                <code>{i.id}</code>
              </td>
              <td class="muted">{i.what}</td>
              <td>
                <code>{i.sha256.slice(0, 12)}</code>
              </td>
              <td>
                <span class={`state state-${i.state === 'approved' ? 'enabled' : 'pending'}`}>
                  {STATE_WORDS[i.state]}
                </span>
              </td>
              <td>
                {i.state !== 'approved' ? (
                  <button type="button" onClick={() => act(i.id, 'approve')}>
                    Approve
                  </button>
                ) : null}
                {i.state !== 'new' ? (
                  <button type="button" onClick={() => act(i.id, 'revoke')}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
