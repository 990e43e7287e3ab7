/**
 * `quick_commands` (config.yaml): `/name` aliases on every surface with commands. A value starting
 * with `/` runs that command (its own arguments, then the alias's arguments appended); any other
 * value is sent to the model as the message (the alias's arguments appended). Built-in, plugin and
 * skill commands of the same name win.
 */

export type QuickCommand = { kind: 'command'; name: string; args: string } | { kind: 'text'; text: string };

/** What `/name args` stands for when `name` is a quick command; null otherwise. */
export function quickCommand(
  commands: Readonly<Record<string, string>>,
  name: string,
  args: string,
): QuickCommand | null {
  const value = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (value === undefined) return null;
  const joined = (head: string) => [head, args].filter((s) => s !== '').join(' ');
  const m = /^\/([A-Za-z0-9_:-]+)(?:\s+([\s\S]*))?$/.exec(value.trim());
  if (m?.[1]) return { kind: 'command', name: m[1].toLowerCase(), args: joined((m[2] ?? '').trim()) };
  return { kind: 'text', text: joined(value.trim()) };
}
