/** Who registered a hook callback: named in every log line about it. */
export type HookSource = 'builtin' | 'plugin' | 'shell' | 'gateway' | 'test';

export interface HookOwner {
  source: HookSource;
  name: string;
  /**
   * `false` for a bundled plugin: its callbacks run without the fault scope (plugin-faults.ts), so a
   * gateway with no third-party plugin never turns on Node's promise hooks (2-3 % CPU per message)
   */
  scoped?: boolean;
}

/** "plugin:calculator", "shell:~/hooks/x.sh": how an owner is named in logs and listings. */
export function ownerLabel(owner: HookOwner): string {
  return `${owner.source}:${owner.name}`;
}
