/** Who registered a hook callback: named in every log line about it. */
export type HookSource = 'builtin' | 'plugin' | 'shell' | 'gateway' | 'test';

export interface HookOwner {
  source: HookSource;
  name: string;
}

/** "plugin:calculator", "shell:~/hooks/x.sh": how an owner is named in logs and listings. */
export function ownerLabel(owner: HookOwner): string {
  return `${owner.source}:${owner.name}`;
}
