/** HOOK.yaml: `name`, `description`, a non-empty `events` list of gateway events or `prefix:*` wildcards. */
import { closest, yamlFieldLine } from '@hermes/plugins';
import {
  ERROR_CODES,
  GATEWAY_EVENT_WILDCARDS,
  GATEWAY_EVENTS,
  HermesError,
  isGatewayEventPattern,
  MAX_YAML_NESTING,
  yamlNestingTooDeep,
} from '@hermes/protocol';
import { parse } from 'yaml';

export interface GatewayHookManifest {
  name: string;
  description: string;
  events: string[];
  /** unknown keys: reported, never fatal */
  warnings: string[];
}

const KNOWN_KEYS = ['name', 'description', 'events'];

/** A HOOK.yaml problem (`HERMES_HOOK_MANIFEST`), naming the file (and line) and the key. */
export class HookManifestError extends HermesError {
  constructor(
    readonly file: string,
    readonly key: string | null,
    /** what is wrong, without the file and key */
    readonly problem: string,
  ) {
    super(ERROR_CODES.HOOK_MANIFEST, `${file}${key ? `: ${key}` : ''}: ${problem}`);
    this.name = 'HookManifestError';
  }
}

/** Whether an event name or pattern is one a gateway ever fires (from the gateway-event table). */
export { isGatewayEventPattern };

/** Parses and checks a HOOK.yaml text; throws HookManifestError with what is wrong and where. */
export function parseHookManifest(text: string, file: string): GatewayHookManifest {
  const deepAt = yamlNestingTooDeep(text);
  if (deepAt !== null) {
    throw new HookManifestError(
      file,
      null,
      `not valid YAML (collections nested more than ${MAX_YAML_NESTING} deep at line ${deepAt})`,
    );
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    // the first line only: yaml's message goes on with a code frame, and a manifest error is one line
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new HookManifestError(file, null, `not valid YAML (${reason})`);
  }
  try {
    return checkHookManifest(raw, file);
  } catch (err) {
    // where the key is: `HOOK.yaml:3: events[0]: ...` (a missing key has no line)
    const line = err instanceof HookManifestError && err.key ? yamlFieldLine(text, err.key) : null;
    if (line !== null && err instanceof HookManifestError) {
      throw new HookManifestError(`${file}:${line}`, err.key, err.problem);
    }
    throw err;
  }
}

function checkHookManifest(raw: unknown, file: string): GatewayHookManifest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new HookManifestError(file, null, 'expected a mapping with name, description and events');
  }
  const m = raw as Record<string, unknown>;
  if (typeof m.name !== 'string' || m.name.trim() === '') {
    throw new HookManifestError(file, 'name', 'expected a non-empty string');
  }
  if (typeof m.description !== 'string') throw new HookManifestError(file, 'description', 'expected a string');
  if (!Array.isArray(m.events) || m.events.length === 0) {
    throw new HookManifestError(file, 'events', 'expected a non-empty list of events (e.g. [agent:end, command:*])');
  }
  const events: string[] = [];
  for (const [i, event] of m.events.entries()) {
    if (typeof event !== 'string') throw new HookManifestError(file, `events[${i}]`, 'expected a string');
    if (!isGatewayEventPattern(event)) {
      const suggestion = closest(event, [...GATEWAY_EVENTS, ...GATEWAY_EVENT_WILDCARDS]);
      const hint = suggestion ? ` (did you mean "${suggestion}"?)` : '';
      throw new HookManifestError(
        file,
        `events[${i}]`,
        `unknown gateway event ${JSON.stringify(event)}${hint}; events: ${GATEWAY_EVENTS.join(', ')}, command:NAME, or PREFIX:*`,
      );
    }
    events.push(event);
  }
  const warnings = Object.keys(m)
    .filter((k) => !KNOWN_KEYS.includes(k))
    .map((k) => `${file}: ${k}: unknown key, ignored; valid keys: ${KNOWN_KEYS.join(', ')}`);
  return { name: m.name.trim(), description: m.description, events, warnings };
}
