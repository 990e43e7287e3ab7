/**
 * The gateway's own events (`gateway:startup`, `session:*`, `agent:*`, `cron:*`, `command:*`): their
 * contexts and THE table every list of event names, the wildcard prefixes and the typed `emit` of
 * the gateway derive from. Nothing else in the project lists gateway event names.
 */

/** The context each event carries (snake_case keys, as in the seed's table). */
export interface GatewayEventContexts {
  'gateway:startup': { platforms: string[] };
  'session:start': { platform: string; user_id: string; session_id: string; session_key: string };
  /** `user_id`: who caused it, empty when the gateway's idle sweep ended the session */
  'session:end': {
    platform: string;
    user_id: string;
    session_id: string;
    session_key: string;
    /** `switch`: `/resume` made another of the chat's sessions the active one */
    reason: 'new' | 'idle' | 'daily' | 'switch';
  };
  'session:reset': { platform: string; user_id: string; session_key: string };
  'agent:start': { platform: string; user_id: string; session_id: string; message: string };
  'agent:step': { platform: string; user_id: string; session_id: string; iteration: number; tool_names: string[] };
  'agent:end': { platform: string; user_id: string; session_id: string; message: string; response: string };
  'cron:start': { job_id: string; name: string; schedule: string; slot_time: string };
  'cron:end': { job_id: string; name: string; status: string; response: string };
  command: { platform: string; user_id: string; command: string; args: string };
}

/**
 * THE gateway-event table: one example context per event, in the order of the docs' table
 * (`command` stands for every `command:<name>`). The event names, the union type, the wildcard
 * prefixes and `hermes hooks test`'s synthetic contexts all derive from it; a missing or extra
 * event, or an example off its context type, is a compile error.
 */
export const GATEWAY_EVENT_EXAMPLES: { readonly [K in keyof GatewayEventContexts]: GatewayEventContexts[K] } = {
  'gateway:startup': { platforms: ['telegram', 'discord'] },
  'session:start': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    session_key: 'telegram:123456789:dm',
  },
  'session:end': {
    platform: 'telegram',
    user_id: '',
    session_id: '20261122T101500-a1b2c3',
    session_key: 'telegram:123456789:dm',
    reason: 'idle',
  },
  'session:reset': { platform: 'telegram', user_id: '123456789', session_key: 'telegram:123456789:dm' },
  'agent:start': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    message: 'What is the weather like?',
  },
  'agent:step': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    iteration: 3,
    tool_names: ['terminal', 'read_file'],
  },
  'agent:end': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    message: 'What is the weather like?',
    response: 'Sunny, 21 °C.',
  },
  'cron:start': {
    job_id: '3f9c2a1b',
    name: 'disk check',
    schedule: 'every 5m',
    slot_time: '2026-11-22T10:15:00.000Z',
  },
  'cron:end': {
    job_id: '3f9c2a1b',
    name: 'disk check',
    status: 'delivered',
    response: 'Disk /var is 93% full.',
  },
  command: { platform: 'telegram', user_id: '123456789', command: 'new', args: '' },
};

/** One gateway event as the hook bus carries it (hook `gateway_event`): its name and its context. */
export interface GatewayEventPayload {
  event: GatewayEventType;
  /** the event's context, as `GatewayEventContext<event>` (the typed `emit` checked it) */
  context: Record<string, unknown>;
}

/** A fixed event name (the `command:` family aside). */
export type GatewayEventName = Exclude<keyof GatewayEventContexts, 'command'>;

/** The event a slash command fires: `command:new`, `command:model`, ... */
export type CommandEventType = `command:${string}`;

/** Every gateway event. */
export type GatewayEventType = GatewayEventName | CommandEventType;

/** The context of an event type (`command:*` events share one shape). */
export type GatewayEventContext<T extends GatewayEventType> = T extends GatewayEventName
  ? GatewayEventContexts[T]
  : GatewayEventContexts['command'];

/** The fixed event names, in the order of the docs' table. */
export const GATEWAY_EVENTS: readonly GatewayEventName[] = Object.freeze(
  Object.keys(GATEWAY_EVENT_EXAMPLES).filter((name): name is GatewayEventName => name !== 'command'),
);

/** The event families (`gateway`, `session`, `agent`, `cron`, `command`), each subscribable as `prefix:*`. */
export const GATEWAY_EVENT_PREFIXES: readonly string[] = Object.freeze([
  ...new Set(Object.keys(GATEWAY_EVENT_EXAMPLES).map((name) => name.split(':')[0] ?? name)),
]);

/** `gateway:*`, `session:*`, `agent:*`, `cron:*`, `command:*`. */
export const GATEWAY_EVENT_WILDCARDS: readonly string[] = Object.freeze(GATEWAY_EVENT_PREFIXES.map((p) => `${p}:*`));

const COMMAND_EVENT = /^command:[a-z0-9_:-]+$/;

/** True for an event the gateway fires: a fixed name or `command:<name>`. */
export function isGatewayEventType(name: string): name is GatewayEventType {
  return (GATEWAY_EVENTS as readonly string[]).includes(name) || COMMAND_EVENT.test(name);
}

/** Whether a subscription (an event name, `prefix:*` or `*`) is one a gateway ever fires. */
export function isGatewayEventPattern(pattern: string): boolean {
  return pattern === '*' || GATEWAY_EVENT_WILDCARDS.includes(pattern) || isGatewayEventType(pattern);
}

/** True when a subscription pattern (`agent:end`, `command:*`, `*`) covers an event type. */
export function gatewayEventMatches(pattern: string, type: string): boolean {
  if (pattern === type || pattern === '*') return true;
  return pattern.endsWith(':*') && type.startsWith(pattern.slice(0, -1));
}

/** A copy of the example context of an event (`command:<name>` with its name filled in). */
export function gatewayEventExample<T extends GatewayEventType>(event: T): GatewayEventContext<T> {
  const example = isFixedEvent(event)
    ? GATEWAY_EVENT_EXAMPLES[event]
    : { ...GATEWAY_EVENT_EXAMPLES.command, command: event.slice('command:'.length) };
  return structuredClone(example) as GatewayEventContext<T>;
}

function isFixedEvent(name: string): name is GatewayEventName {
  return (GATEWAY_EVENTS as readonly string[]).includes(name);
}
