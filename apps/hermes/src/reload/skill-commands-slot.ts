/** The gateway's `/skill-name` commands behind one object whose catalog a reload swaps. */
import type { SkillCommands } from '@hermes/agent';

export class SkillCommandsSlot implements SkillCommands {
  #current: SkillCommands;

  constructor(initial: SkillCommands) {
    this.#current = initial;
  }

  /** The commands the chats get from now on. */
  set(next: SkillCommands): void {
    this.#current = next;
  }

  list(): readonly { name: string; description: string }[] {
    return this.#current.list();
  }

  message(name: string, args: string): Promise<string | null> {
    return this.#current.message(name, args);
  }

  preload(names: readonly string[]): Promise<{ text: string; missing: string[] }> {
    return this.#current.preload(names);
  }
}
