// One EventSource on /console/api/events: platform states, metric samples and the live log tail.
import { useEffect, useState } from 'preact/hooks';
import type { LogRecord, MetricsSample, Platforms } from '../shared/types.js';

const MAX_SAMPLES = 90;
const MAX_LOGS = 500;

export interface LiveEvents {
  platforms: Platforms | null;
  metrics: MetricsSample[];
  logs: LogRecord[];
  connected: boolean;
}

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

export function useEvents(enabled: boolean): LiveEvents {
  const [platforms, setPlatforms] = useState<Platforms | null>(null);
  const [metrics, setMetrics] = useState<MetricsSample[]>([]);
  const [logs, setLogs] = useState<LogRecord[]>([]);
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const es = new EventSource('/console/api/events');
    es.onopen = () => setConnected(true);
    es.onerror = () => setConnected(false);
    es.addEventListener('platforms', (e) => {
      const p = parse<Platforms>((e as MessageEvent<string>).data);
      if (p) setPlatforms(p);
    });
    es.addEventListener('metrics', (e) => {
      const m = parse<MetricsSample>((e as MessageEvent<string>).data);
      if (m) setMetrics((prev) => [...prev, m].slice(-MAX_SAMPLES));
    });
    es.addEventListener('log', (e) => {
      const r = parse<LogRecord>((e as MessageEvent<string>).data);
      if (r) setLogs((prev) => [...prev, r].slice(-MAX_LOGS));
    });
    return () => es.close();
  }, [enabled]);

  return { platforms, metrics, logs, connected };
}
