// Logs: the ring buffer's last records, then the live tail from the `log` events, filtered by level.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getJson } from '../shared/api.js';
import { fmtTime, levelName, levelRank } from '../shared/format.js';
import type { LogRecord } from '../shared/types.js';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export function Logs({ live }: { live: LogRecord[] }) {
  const [level, setLevel] = useState<string>('info');
  const [initial, setInitial] = useState<LogRecord[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJson<{ records: LogRecord[] }>(`/console/api/logs?level=${level}&limit=200`)
      .then((d) => setInitial(d.records))
      .catch((e: Error) => setError(e.message));
  }, [level]);
  const records = useMemo(() => {
    const seen = new Set<string>();
    const min = levelRank(level);
    const out: LogRecord[] = [];
    for (const r of [...initial, ...live]) {
      const k = `${r.time}|${r.msg}`;
      if (seen.has(k) || levelRank(r.level) < min) continue;
      seen.add(k);
      out.push(r);
    }
    return out.slice(-500);
  }, [initial, live, level]);
  return (
    <section>
      <h2>Logs</h2>
      <label>
        Level{' '}
        <select value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value)}>
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {l} and above
            </option>
          ))}
        </select>
      </label>
      {error ? <p class="error">{error}</p> : null}
      <table class="logs">
        <tbody>
          {records
            .slice()
            .reverse()
            .map((r) => (
              <tr key={`${r.time}|${r.msg}`} class={`log-${levelName(r.level)}`}>
                <td class="muted">{fmtTime(r.time)}</td>
                <td>{levelName(r.level)}</td>
                <td class="muted">{r.component ?? ''}</td>
                <td>{r.msg}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}
