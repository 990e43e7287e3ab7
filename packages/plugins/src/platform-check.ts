/**
 * The shape check of `ctx.registerPlatform(registration)`: a registration from plain JavaScript
 * that lacks its factory, a factory method or its capabilities fails its plugin's register() with a
 * message naming the member, instead of the gateway skipping the platform later.
 */
import type { PlatformRegistration } from '@hermes/protocol';

const FORMATTING = ['html', 'markdown', 'mrkdwn', 'plain'];
const FLAGS = ['editing', 'typing', 'threads'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks a registration; returns it typed, or throws a TypeError naming the problem. */
export function checkPlatformRegistration(value: unknown, plugin: string): PlatformRegistration {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: registerPlatform: ${problem}`);
  };
  if (!isRecord(value)) return fail('expected {name, capabilities, factory}');
  const { name, capabilities, factory } = value;
  if (typeof name !== 'string' || name.trim() === '') return fail('name: expected a non-empty string');
  if (!isRecord(factory)) return fail(`${name}: factory: expected a platform factory object`);
  if (factory.name !== name) return fail(`${name}: factory.name is ${JSON.stringify(factory.name)}, not "${name}"`);
  for (const method of ['hasCredentials', 'create'] as const) {
    if (typeof factory[method] !== 'function') return fail(`${name}: factory.${method}: expected a function`);
  }
  for (const method of ['instanceKey', 'readSettings'] as const) {
    if (factory[method] !== undefined && typeof factory[method] !== 'function') {
      return fail(`${name}: factory.${method}: expected a function when given`);
    }
  }
  if (!isRecord(capabilities)) return fail(`${name}: capabilities: expected an object`);
  const max = capabilities.maxMessageLength;
  if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0) {
    return fail(`${name}: capabilities.maxMessageLength: expected a positive integer`);
  }
  if (!FORMATTING.includes(capabilities.formatting as string)) {
    return fail(`${name}: capabilities.formatting: expected one of ${FORMATTING.join(', ')}`);
  }
  for (const flag of FLAGS) {
    if (typeof capabilities[flag] !== 'boolean') return fail(`${name}: capabilities.${flag}: expected a boolean`);
  }
  return value as unknown as PlatformRegistration;
}
