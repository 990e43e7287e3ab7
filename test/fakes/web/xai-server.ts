// A fake of the xAI Responses API with Grok's web_search tool: POST /v1/responses with Bearer auth answers as xAI
// does, an output message whose text cites its sources inline ([[1]](url)) with url_citation annotations, and
// the `citations` list of every source looked at. The first citation carries the page's title, the second only
// its number (both are seen from xAI). POST /v1/chat/completions with `search_parameters` answers
// 410 Gone, as xAI does since Live Search was retired. Errors in xAI's shape: {code, error}.
import { CORPUS, type CorpusDoc, searchCorpus } from './corpus.js';
import { type HttpFake, sendJson, startHttpFake } from './http-fake.js';

export interface FakeXaiOptions {
  key: string;
  docs?: readonly CorpusDoc[];
}

/** The query of the prompt the provider sends (`Query: ...` on its last line). */
const queryOf = (prompt: string) => /Query: (.*)$/s.exec(prompt)?.[1]?.trim() ?? prompt;

export function startFakeXai(options: FakeXaiOptions): Promise<HttpFake> {
  const docs = options.docs ?? CORPUS;
  return startHttpFake((req, res) => {
    if (req.headers.authorization !== `Bearer ${options.key}`) {
      return sendJson(res, 400, {
        code: 'Client specified an invalid argument',
        error: 'Incorrect API key provided: xa***ng. You can obtain an API key from https://console.x.ai.',
      });
    }
    if (req.method === 'POST' && req.path === '/v1/chat/completions') {
      return sendJson(res, 410, {
        code: 'Gone',
        error:
          'Live search is deprecated. Please switch to the Agent Tools API: https://docs.x.ai/docs/guides/tools/overview',
      });
    }
    if (req.method !== 'POST' || req.path !== '/v1/responses')
      return sendJson(res, 404, { code: 'NotFound', error: 'no route' });
    const body = (req.body ?? {}) as { model?: unknown; input?: unknown; tools?: unknown };
    const tools = Array.isArray(body.tools) ? (body.tools as { type?: unknown }[]) : [];
    const prompt = Array.isArray(body.input) ? String((body.input[0] as { content?: unknown })?.content ?? '') : '';
    if (!tools.some((t) => t.type === 'web_search')) {
      return sendJson(res, 200, { id: 'resp_fake', status: 'completed', output: [], citations: [] });
    }
    const query = queryOf(prompt);
    if (query.includes('overloaded')) {
      return sendJson(res, 200, {
        id: 'resp_fake',
        status: 'failed',
        error: { code: 'overloaded', message: 'The model is overloaded' },
      });
    }
    const found = searchCorpus(query, docs);
    const cited = found.slice(0, 2);
    let text = '';
    const annotations: object[] = [];
    cited.forEach((doc, i) => {
      const sentence = `${doc.snippet} `;
      const mark = `[[${i + 1}]](${doc.url})`;
      text += sentence;
      annotations.push({
        type: 'url_citation',
        url: doc.url,
        title: i === 0 ? doc.title : String(i + 1),
        start_index: text.length,
        end_index: text.length + mark.length,
      });
      text += `${mark}\n`;
    });
    sendJson(res, 200, {
      id: 'resp_fake',
      object: 'response',
      model: body.model,
      status: 'completed',
      output: [
        { type: 'web_search_call', id: 'ws_fake', status: 'completed', action: { type: 'search', query } },
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text, annotations, logprobs: [] }],
        },
      ],
      citations: [
        ...cited.map((d) => d.url),
        ...docs
          .filter((d) => !cited.includes(d))
          .slice(0, 2)
          .map((d) => d.url),
        'ftp://not-a-web.example/file',
      ],
      usage: { input_tokens: 100, output_tokens: 50, num_server_side_tools_used: 1 },
    });
  });
}
