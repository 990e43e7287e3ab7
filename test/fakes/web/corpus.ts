// The documents the search fakes "index": each service fake searches these, so tests can tell providers apart.

export interface CorpusDoc {
  url: string;
  title: string;
  /** a short snippet */
  snippet: string;
  /** the page as Markdown (what extract endpoints return) */
  markdown: string;
}

export const CORPUS: readonly CorpusDoc[] = [
  {
    url: 'https://hermes.example/docs/install',
    title: 'Installing Hermes',
    snippet: 'Install Hermes with npm and run hermes -z to ask one question.',
    markdown: '# Installing Hermes\n\nInstall with `npm install -g hermes`, then run `hermes -z "hello"`.',
  },
  {
    url: 'https://hermes.example/docs/plugins',
    title: 'Writing Hermes plugins',
    snippet: 'A plugin is a folder with plugin.yaml and index.ts exporting register(ctx).',
    markdown: '# Writing Hermes plugins\n\nA plugin is a folder with `plugin.yaml` and `index.ts`.',
  },
  {
    url: 'https://weather.example/paris',
    title: 'Paris weather today',
    snippet: 'Sunny in Paris, 24 °C, light wind from the west.',
    markdown: '# Paris weather\n\nSunny, 24 °C.',
  },
  {
    // an IP literal, so the SSRF pre-check needs no DNS in end-to-end tests (never contacted: the fakes serve it)
    url: 'https://93.184.216.34/solar',
    title: 'Solar report 2025',
    snippet: 'Solar overtook coal in 2025.',
    markdown: '# Solar report 2025\n\nSolar overtook coal.',
  },
  {
    url: 'https://news.example/ai',
    title: 'AI news roundup',
    snippet: 'This week in AI: new open models and agent frameworks.',
    markdown: '# AI news\n\nNew open models this week.',
  },
];

/** Documents matching any word of `query` (case-insensitive), best first; every document when none match. */
export function searchCorpus(query: string, docs: readonly CorpusDoc[] = CORPUS): CorpusDoc[] {
  const words = query
    .toLowerCase()
    .split(/\W+/)
    .filter((w) => w.length > 2);
  const scored = docs
    .map((doc) => {
      const hay = `${doc.title} ${doc.snippet}`.toLowerCase();
      return { doc, score: words.filter((w) => hay.includes(w)).length };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  return scored.length > 0 ? scored.map((s) => s.doc) : [...docs];
}

/** A document by URL (trailing slash ignored). */
export function corpusDoc(url: string, docs: readonly CorpusDoc[] = CORPUS): CorpusDoc | undefined {
  const norm = (u: string) => u.replace(/\/$/, '');
  return docs.find((d) => norm(d.url) === norm(url));
}
