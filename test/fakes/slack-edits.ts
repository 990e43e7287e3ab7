// chat.update and reactions.add / reactions.remove of the fake Slack Web API, as Slack answers them.

type Params = Record<string, unknown>;

interface Answer {
  status: number;
  body: object;
  headers?: Record<string, string>;
}

/** One successful chat.update. */
export interface SlackUpdate {
  channel: string;
  ts: string;
  text: string;
  params: Params;
}

export interface SlackEditDeps {
  /** the bot's own posts: only these can be updated */
  posted: readonly { channel: string; ts: string }[];
  channelExists(id: string): boolean;
  ok(body?: Params): Answer;
  platformError(error: string): Answer;
  maxTextLength: number;
}

/** `reactions`: the bot's reaction names per `${channel}:${ts}`, in the order added. */
export function slackEditMethods(deps: SlackEditDeps, updates: SlackUpdate[], reactions: Map<string, string[]>) {
  const str = (value: unknown): string => (typeof value === 'string' ? value : '');

  function update(params: Params): Answer {
    const channel = str(params.channel);
    const ts = str(params.ts);
    const text = str(params.text);
    if (!deps.channelExists(channel)) return deps.platformError('channel_not_found');
    if (ts === '') return deps.platformError('message_not_found');
    if (!deps.posted.some((m) => m.channel === channel && m.ts === ts)) return deps.platformError('message_not_found');
    if (text === '' && params.blocks === undefined) return deps.platformError('no_text');
    if (text.length > deps.maxTextLength) return deps.platformError('msg_too_long');
    updates.push({ channel, ts, text, params });
    return deps.ok({ channel, ts, text, message: { type: 'message', text } });
  }

  function reaction(params: Params, add: boolean): Answer {
    const channel = str(params.channel);
    const ts = str(params.timestamp);
    const name = str(params.name);
    if (channel === '' || ts === '') return deps.platformError('no_item_specified');
    if (!deps.channelExists(channel)) return deps.platformError('channel_not_found');
    if (!/^[a-z0-9_+'-]+$/.test(name)) return deps.platformError('invalid_name');
    const key = `${channel}:${ts}`;
    const now = reactions.get(key) ?? [];
    if (add && now.includes(name)) return deps.platformError('already_reacted');
    if (!add && !now.includes(name)) return deps.platformError('no_reaction');
    reactions.set(key, add ? [...now, name] : now.filter((n) => n !== name));
    return deps.ok();
  }

  return {
    'chat.update': update,
    'reactions.add': (params: Params) => reaction(params, true),
    'reactions.remove': (params: Params) => reaction(params, false),
  };
}
