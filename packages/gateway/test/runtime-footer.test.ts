// display.runtime_metadata_footer: the footer's compact format (model, tokens in / out, duration;
// nothing without a model), and the per-platform override of gateway.platforms.<name>.
import { describe, expect, it } from 'vitest';
import type { GatewaySettings } from '../src/runner/gateway-deps.js';
import { displayResolver } from '../src/turn/display-settings.js';
import { compactCount, compactDuration, runtimeFooter, withRuntimeFooter } from '../src/turn/runtime-footer.js';
import { DISPLAY_DEFAULTS } from '../src/turn/turn-display.js';

describe('the runtime footer', () => {
  it('names the model, the tokens in and out, and the duration, compactly', () => {
    const usage = { prompt_tokens: 1234, completion_tokens: 56 };
    expect(runtimeFooter({ model: 'gpt-4o-mini', usage, durationMs: 2_345 })).toBe(
      '— gpt-4o-mini · 1.2k in / 56 out · 2.3 s',
    );
    // no usage reported: the tokens are left out, not shown as 0
    expect(runtimeFooter({ model: 'llama3.2', usage: null, durationMs: 75_200 })).toBe('— llama3.2 · 1 min 15 s');
    // a turn no model answered (refused by a limit): no footer
    expect(runtimeFooter({ model: '', usage: null, durationMs: 3 })).toBeNull();
    expect(withRuntimeFooter('Answer.\n', '— m · 0.1 s')).toBe('Answer.\n\n— m · 0.1 s');
    expect(withRuntimeFooter('Answer.', null)).toBe('Answer.');
  });

  it('counts and durations', () => {
    expect([999, 1_000, 9_950, 12_345, 999_499, 1_250_000].map(compactCount)).toEqual([
      '999',
      '1k',
      '9.9k',
      '12k',
      '999k',
      '1.3M',
    ]);
    expect([400, 9_940, 12_600, 60_000].map(compactDuration)).toEqual(['0.4 s', '9.9 s', '13 s', '1 min 0 s']);
  });

  it('is off by default; gateway.platforms.<name>.runtime_metadata_footer wins over display.* either way', () => {
    const settings = (display: GatewaySettings['display'], platformSettings: GatewaySettings['platformSettings']) =>
      ({ display, platformSettings }) as GatewaySettings;
    expect(displayResolver(settings(undefined, {}))('telegram').runtimeFooter).toBe(false);
    const on = { ...DISPLAY_DEFAULTS, runtimeFooter: true };
    const resolve = displayResolver(
      settings(on, {
        telegram: { runtime_metadata_footer: false },
        slack: { streaming: true },
        discord: { runtime_metadata_footer: 'yes' }, // not a boolean: the global value
      }),
    );
    expect(resolve('telegram')).toEqual({ ...on, runtimeFooter: false });
    expect(resolve('slack')).toEqual({ ...on, streaming: true });
    expect(resolve('discord').runtimeFooter).toBe(true);
    const off = displayResolver(settings(DISPLAY_DEFAULTS, { web: { runtime_metadata_footer: true } }));
    expect(off('web').runtimeFooter).toBe(true);
    expect(off('telegram').runtimeFooter).toBe(false);
  });
});
