/** The bundled Signal platform plugin: registers the adapter factory under the name "signal". */
import type { PluginContext } from '@hermes/plugin-sdk';
import { SIGNAL_CAPABILITIES } from './adapter.js';
import { signalFactory } from './factory.js';

export { createSignalAdapter, SIGNAL_CAPABILITIES } from './adapter.js';
export { readEnvelope } from './envelope.js';
export { signalFactory } from './factory.js';
export { markdownToStyled } from './format/markdown-to-styled.js';
export { type SignalTextStyle, type StyledText, type StyleRange, textStyleParams } from './format/styled-text.js';

/** Registers `{ name: 'signal', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: signalFactory.name, capabilities: SIGNAL_CAPABILITIES, factory: signalFactory });
}

export default register;
