// Which intake each platform uses in a run: Telegram long polling or webhook, Slack Socket Mode or
// HTTP (Events API). The gateway runs one bot per platform, so a run takes one mode each: drawn
// from the seed, or named in CHAOS_MODES (e.g. `telegram=webhook,slack=http,streaming=on`). The API
// platform and Discord have one mode and run in every run. `streaming=on` streams the chat answers
// (display.streaming): one message each, edited until it carries the whole answer.
import type { Rng } from './rng.js';

export interface Modes {
  telegram: 'polling' | 'webhook';
  slack: 'socket' | 'http';
  /** display.streaming: answers streamed into one message by edits */
  streaming: 'on' | 'off';
}

const CHOICES = { telegram: ['polling', 'webhook'], slack: ['socket', 'http'], streaming: ['off', 'on'] } as const;

/** The modes CHAOS_MODES names, the rest drawn with `rng`; an unknown platform or mode throws. */
export function chooseModes(list: string | undefined, rng: Rng): Modes {
  const modes: Modes = { telegram: rng.pick(CHOICES.telegram), slack: rng.pick(CHOICES.slack), streaming: 'off' };
  // drawn after the others, so a seed's intake modes stay what they were before streaming was a mode
  modes.streaming = rng.pick(CHOICES.streaming);
  for (const item of (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [platform, mode] = item.split('=');
    if (platform === 'telegram' && (mode === 'polling' || mode === 'webhook')) modes.telegram = mode;
    else if (platform === 'slack' && (mode === 'socket' || mode === 'http')) modes.slack = mode;
    else if (platform === 'streaming' && (mode === 'on' || mode === 'off')) modes.streaming = mode;
    else
      throw new Error(
        `CHAOS_MODES: "${item}" is not one of telegram=polling|webhook, slack=socket|http, streaming=on|off`,
      );
  }
  return modes;
}
