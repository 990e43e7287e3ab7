/**
 * `/model [provider:]model` in a chat: alone, this chat's model, the default, the fallback and the
 * providers to choose from; with an argument, switches this chat's session to that model (kept in
 * state.db with the session, used by every later turn, shown by /status). Other chats keep theirs.
 */
import { choiceLabel, type SessionModels } from '@hermes/agent';
import type { CommandContext } from './commands.js';

export interface ModelCommandPorts {
  /** the model providers and sessions' choices; absent (tests, hosts without providers): one fixed model */
  models?: SessionModels | undefined;
  /** the configured model (what a host without providers uses) */
  model: string;
  /** the chat's active session id, if it has one */
  activeSession(sessionKey: string): Promise<string | null>;
  /** the chat's session, opened (created when there is none) as a message would */
  openSession(ctx: CommandContext): Promise<string>;
  env: Readonly<Record<string, string | undefined>>;
}

/** What /status shows on its Model line for this chat. */
export async function sessionModelLabel(ports: ModelCommandPorts, sessionKey: string): Promise<string> {
  if (!ports.models) return ports.model;
  return choiceLabel(await ports.models.current(await ports.activeSession(sessionKey)));
}

export async function modelCommand(ports: ModelCommandPorts, ctx: CommandContext): Promise<string> {
  const { models } = ports;
  if (!models) {
    return ctx.args === ''
      ? `Model: ${ports.model} (change it with: hermes config set model.default <id>)`
      : 'This gateway cannot switch models per chat.';
  }
  if (ctx.args === '') return overview(ports, models, ctx.sessionKey);
  const parsed = await models.parse(ctx.args, await ports.activeSession(ctx.sessionKey));
  if (!parsed.ok) return `Cannot switch: ${parsed.error}.`;
  const sessionId = await ports.openSession(ctx);
  await models.choose(sessionId, parsed.choice);
  const profile = models.providers.profile(parsed.choice.provider);
  const keyMissing = profile && profile.apiKeyEnv !== '' && !ports.env[profile.apiKeyEnv] && profile.name !== 'custom';
  return [
    `This chat now uses ${choiceLabel(parsed.choice)}.`,
    ...(keyMissing ? [`Note: ${profile.apiKeyEnv} is not set, so requests go without a key.`] : []),
  ].join('\n');
}

async function overview(ports: ModelCommandPorts, models: SessionModels, sessionKey: string): Promise<string> {
  const current = await models.current(await ports.activeSession(sessionKey));
  const fallbacks = models.providers.fallbacks();
  const providers = models.providers.names().map((name) => {
    const p = models.providers.profile(name);
    return `  ${name}${p?.defaultModel ? ` (default ${p.defaultModel})` : ''}`;
  });
  return [
    `Model: ${choiceLabel(current)} (this chat)`,
    `Default: ${choiceLabel(models.primary())}`,
    ...(fallbacks.length > 0 ? [`Fallback: ${fallbacks.map(choiceLabel).join(' → ')}`] : []),
    'Providers:',
    ...providers,
    'Switch with /model [provider:]model, e.g. /model openrouter:anthropic/claude-3.5-haiku',
  ].join('\n');
}
