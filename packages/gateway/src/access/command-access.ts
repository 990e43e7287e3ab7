/**
 * Which commands each tier may run: `admin` every command; `user` all but the admin-only ones
 * below (answering another user's approval is decided by the approvals themselves). A refused
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
export function commandRefusal(name: string, tier: Tier): string | null {
  if (tier === 'admin' || !(name in ADMIN_COMMANDS)) return null;
  return `/${name} is for admins of this bot (it ${ADMIN_COMMANDS[name]}); ask the bot's owner.`;
}
