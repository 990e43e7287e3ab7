/**
 * The bundled Matrix platform plugin: registers the adapter factory under the name "matrix".
 * Importing it does not load the adapter (adapter.ts): that happens when the platform starts.
 */
import type { PluginContext } from '@hermes/plugin-sdk';
import { MATRIX_CAPABILITIES } from './capabilities.js';
import { matrixFactory } from './factory.js';

export { E2EE_NOTICE, MATRIX_CAPABILITIES } from './capabilities.js';
export { matrixFactory } from './factory.js';
export { htmlToPlain } from './format/html-to-plain.js';
export { markdownToMatrixHtml } from './format/markdown-to-html.js';

/** Registers `{ name: 'matrix', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: matrixFactory.name, capabilities: MATRIX_CAPABILITIES, factory: matrixFactory });
}

export default register;
