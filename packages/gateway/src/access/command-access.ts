/**
 * Which commands each tier may run: `admin` every command; `user` all but the admin-only ones
 * below and the plugin commands registered `adminOnly` (answering another user's approval is
 * decided by the approvals themselves); either tier none of its `exclude_commands`. A refused
 * command is answered with why, and runs nothing.
 */
import type { Tier } from './access-settings.js';

/** Built-in commands only admins may run, with what they would change. */
export const ADMIN_COMMANDS: Readonly<Record<string, string>> = {
  model: "switches this chat's model",
  sethome: 'sets the home channel for deliveries',
  plugins: 'lists the plugins and their state',
};

/** Why `tier` may not run `/name`, or null when it may. */
export function commandRefusal(
  name: string,
  tier: Tier,
  options: { excluded?: readonly string[]; adminOnly?: boolean } = {},
): string | null {
  if (options.excluded?.includes(name)) {
    return `/${name} is turned off for ${tier === 'admin' ? 'admins' : 'users'} of this bot (access.tiers.${tier}.exclude_commands).`;
  }
  if (tier === 'admin') return null;
  if (options.adminOnly) return `/${name} is for admins of this bot (its plugin says so); ask the bot's owner.`;
  if (!(name in ADMIN_COMMANDS)) return null;
  return `/${name} is for admins of this bot (it ${ADMIN_COMMANDS[name]}); ask the bot's owner.`;
}
