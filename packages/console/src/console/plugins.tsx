// Plugins & hooks: each plugin's state and last error, enable / disable (written to config.yaml; restart needed).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from '../shared/api.js';
import type { PluginsInfo } from '../shared/types.js';
import { useAction } from './use-action.js';

export function Plugins() {
  const [data, setData] = useState<PluginsInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [restart, setRestart] = useState(false);
  const action = useAction();
  const load = useCallback(() => {
    getJson<PluginsInfo>('/console/api/plugins')
      .then(setData)
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(load, [load]);
  async function toggle(name: string, enable: boolean): Promise<void> {
    await action.run(
      `${name} ${enable ? 'enabled' : 'disabled'} in config.yaml`,
      async () => {
        const r = await postJson<{ ok: boolean; restartNeeded?: boolean }>(
          `/console/api/plugins/${enable ? 'enable' : 'disable'}`,
          { name },
        );
        if (r.restartNeeded) setRestart(true);
      },
      load,
    );
  }
  return (
    <section>
      <h2>Plugins &amp; hooks</h2>
      {error ? <p class="error">{error}</p> : null}
      {action.error ? <p class="error">{action.error}</p> : null}
      {action.message ? <p class="ok">{action.message}</p> : null}
      {restart ? (
        <p class="warn" data-testid="restart-needed">
          Restart needed: the change takes effect when the gateway restarts.
        </p>
      ) : null}
      <h3>Plugins</h3>
      <table>
        <tbody>
          {(data?.plugins ?? []).map((p) => (
            <tr key={p.name}>
              <td>{p.name}</td>
              <td class="muted">{p.kind}</td>
              <td>
                <span class={`state state-${p.state}`}>{p.state}</span>
              </td>
              <td class="error">{p.error ?? ''}</td>
              <td>
                <button type="button" onClick={() => toggle(p.name, !p.enabled)}>
                  {p.enabled ? 'Disable' : 'Enable'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Shell hooks</h3>
      {data && data.shellHooks.length === 0 ? <p class="muted">None.</p> : null}
      <table>
        <tbody>
          {(data?.shellHooks ?? []).map((h) => (
            <tr key={`${h.event} ${h.command}`}>
              <td>{h.event}</td>
              <td>
                <code>{h.command}</code>
              </td>
              <td>{h.state}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Gateway hooks</h3>
      {data && data.gatewayHooks.length === 0 ? <p class="muted">None.</p> : null}
      <table>
        <tbody>
          {(data?.gatewayHooks ?? []).map((h) => (
            <tr key={h.name}>
              <td>{h.name}</td>
              <td class="muted">{h.events.join(', ')}</td>
              <td>{h.state}</td>
              <td class="error">{h.lastError ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
