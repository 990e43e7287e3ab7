/**
 * THE surface × stage table: every surface a turn comes from (chats, the web chat, the API
 * platform's two endpoints, scheduled jobs, a gateway hook's `runAgent`, the CLI's chat and
 * one-shot) submits one typed `TurnJob` whose `plan` says which stages apply to it, each omission
 * with its reason. The gateway reads the plan of each job it runs; ARCHITECTURE.md's table is
 * rendered from this one (`turnPlanTable`, checked by test/docs-turn-plan.test.ts).
 */
import type { ChatMessage } from './chat.js';

/** The stages a turn may go through, in the order they run. */
export const TURN_STAGES = [
  'dispatch',
  'authorize',
  'commands',
  'lanes',
  'session',
  'events',
  'metrics',
  'failure_text',
] as const;
export type TurnStage = (typeof TURN_STAGES)[number];

/** Every surface, in the order of the table. */
export const SURFACES = ['chat', 'web', 'completions', 'responses', 'cron', 'hook', 'cli-chat', 'cli-oneshot'] as const;
export type Surface = (typeof SURFACES)[number];

/** A stage applies (with a note on how, where it differs), or is left out for a stated reason. */
export type StagePlan =
  | { readonly apply: true; readonly note?: string }
  | { readonly apply: false; readonly why: string };

/** Which stages apply to a job. */
export type TurnPlan = { readonly [S in TurnStage]: StagePlan };

const on = (note?: string): StagePlan => (note === undefined ? { apply: true } : { apply: true, note });
const off = (why: string): StagePlan => ({ apply: false, why });

/** What a stateless API request leaves out of its surface's plan. */
export const STATELESS_SESSION: StagePlan = off('none: a stateless request carries its history, nothing is stored');

const GATEWAY_ALL = {
  dispatch: on(),
  authorize: on(),
  commands: on(),
  lanes: on(),
  session: on(),
  events: on(),
  metrics: on(),
  failure_text: on(),
} as const satisfies TurnPlan;

const NO_GATEWAY = off('no gateway runs (a plugin hook of the same name never fires in the CLI)');

/** THE table: each surface's plan. */
export const SURFACE_PLANS: { readonly [S in Surface]: TurnPlan } = {
  chat: { ...GATEWAY_ALL, authorize: on('allowlists, else pairing') },
  web: { ...GATEWAY_ALL, authorize: on('pairing; a console operator is admitted') },
  completions: {
    ...GATEWAY_ALL,
    dispatch: on('a skip is a 403 `refused_by_hook`'),
    authorize: on('`API_SERVER_KEY`, checked before the body is read'),
    commands: on('the answer is the HTTP answer (JSON or SSE)'),
    lanes: on('keyed: one run per session (`steer` queues); stateless: a lane of its own'),
    session: on('keyed by `x-hermes-session` or `user`; stateless requests store nothing'),
  },
  responses: {
    ...GATEWAY_ALL,
    dispatch: on('a skip is a 403 `refused_by_hook`'),
    authorize: on('`API_SERVER_KEY`, checked before the body is read'),
    commands: on('the answer is the response'),
    lanes: on('a lane of its own; a chained turn whose session is running forks instead of waiting'),
    session: off('its own: the `previous_response_id` chain picks (or forks) the session; no reset policy'),
  },
  cron: {
    ...GATEWAY_ALL,
    dispatch: on('a skip records the fire `silent`'),
    authorize: off('added by the operator (`hermes cron`) or by an authorized chat (the `cronjob` tool)'),
    commands: on("the answer is delivered as the job's"),
    lanes: on('lane `cron:<id>`: one run per job'),
    session: off('each run is a fresh turn: no history, nothing stored (the fire is in `cron_fires`)'),
  },
  hook: {
    ...GATEWAY_ALL,
    authorize: off('the operator approved the hook (`hermes hooks approve`)'),
    commands: on("the answer is `runAgent`'s text"),
    lanes: on('a lane of its own'),
    session: off('a one-shot turn: no history, nothing stored'),
  },
  'cli-chat': {
    dispatch: NO_GATEWAY,
    authorize: off('the local user who runs `hermes`'),
    commands: on(
      "its own table: /new, /compress, /reasoning, /plugins, /help, /exit, the gateway's session commands (/title, /sessions, /resume, /undo, /retry), plugin commands, skills",
    ),
    lanes: off('one turn at a time: the prompt waits for the answer'),
    session: on('`cli:chat`; /new; `on_session_*` hooks'),
    events: off('gateway events belong to a gateway (plugin hooks still fire)'),
    metrics: off('no `/metrics` without a gateway'),
    failure_text: on(),
  },
  'cli-oneshot': {
    dispatch: NO_GATEWAY,
    authorize: off('the local user who runs `hermes`'),
    commands: off('`-z` text goes to the model as written'),
    lanes: off('one turn per process'),
    session: on('a new `cli:oneshot` session per run'),
    events: off('gateway events belong to a gateway (plugin hooks still fire)'),
    metrics: off('no `/metrics` without a gateway'),
    failure_text: on(),
  },
};

/** Who a turn is for: the platform, the user and the chat (or what stands for it: an API key, a job). */
export interface TurnWho {
  platform: string;
  userId: string;
  chatId: string;
  /**
   * The user identity (`<platform>:<userId>`) the turn runs for when it is not the sender's: a cron
   * job the model made runs as its creator (their tier, their tools, their data)
   */
  onBehalfOf?: string;
}

/** What the model is asked. */
export interface TurnInput {
  text: string;
  /** the earlier messages of a job without a stored session (absent: none, or the session's transcript) */
  history?: readonly ChatMessage[];
  /** the request's own instructions (after the system prompt) */
  instructions?: string | null;
  /** the channel's toolsets (gateway.channel_toolsets): the turn is offered only these, within the rest */
  toolsets?: readonly string[];
}

/**
 * One turn a surface submits: who it is for, its session key (see session-keys.ts; with the plan's
 * `session` stage the key of a stored session, else the lane and id of a turn nothing is stored
 * for), what the model is asked, where the answer goes (`sink`, the surface's own type) and the plan.
 */
export interface TurnJob<Sink> {
  surface: Surface;
  who: TurnWho;
  sessionKey: string;
  input: TurnInput;
  sink: Sink;
  plan: TurnPlan;
}

/** The plan of a surface, with some stages replaced (a stateless API request's `session`). */
export function planFor(surface: Surface, changes: Partial<TurnPlan> = {}): TurnPlan {
  return { ...SURFACE_PLANS[surface], ...changes };
}

const SURFACE_LABELS: { readonly [S in Surface]: string } = {
  chat: 'Telegram, Discord, Slack',
  web: 'web chat',
  completions: 'chat completions',
  responses: 'Responses',
  cron: 'cron',
  hook: 'hook `runAgent`',
  'cli-chat': 'CLI chat',
  'cli-oneshot': 'CLI one-shot (`-z`)',
};

const STAGE_LABELS: { readonly [S in TurnStage]: string } = {
  dispatch: 'dispatch hook',
  authorize: 'authorization',
  commands: 'commands',
  lanes: 'lanes and run slots',
  session: 'session stage',
  events: 'gateway events',
  metrics: 'metrics',
  failure_text: 'failure text',
};

const cell = (plan: StagePlan): string => (plan.apply ? (plan.note ? `✓ ${plan.note}` : '✓') : plan.why);

/** The table as Markdown (surfaces down, stages across), as ARCHITECTURE.md shows it. */
export function turnPlanTable(): string {
  const header = `| surface | ${TURN_STAGES.map((s) => STAGE_LABELS[s]).join(' | ')} |`;
  const rule = `| --- | ${TURN_STAGES.map(() => '---').join(' | ')} |`;
  const rows = SURFACES.map(
    (s) => `| ${SURFACE_LABELS[s]} | ${TURN_STAGES.map((stage) => cell(SURFACE_PLANS[s][stage])).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}
