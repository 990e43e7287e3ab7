// Hash routes: #/overview, #/pairing, #/sessions, #/sessions/<id>, #/plugins, #/trust, #/logs.
import { useEffect, useState } from 'preact/hooks';

export type Page = 'overview' | 'pairing' | 'sessions' | 'plugins' | 'trust' | 'logs';
export const PAGES: readonly { page: Page; label: string }[] = [
  { page: 'overview', label: 'Overview' },
  { page: 'pairing', label: 'Pairing' },
  { page: 'sessions', label: 'Sessions' },
  { page: 'plugins', label: 'Plugins & hooks' },
  { page: 'trust', label: 'Trust' },
  { page: 'logs', label: 'Logs' },
];

export interface Route {
  page: Page;
  id: string | null;
}

function parse(hash: string): Route {
  const [, page, id] = hash.replace(/^#/, '').split('/');
  const known = PAGES.find((p) => p.page === page);
  return { page: known?.page ?? 'overview', id: id ? decodeURIComponent(id) : null };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const on = () => setRoute(parse(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
