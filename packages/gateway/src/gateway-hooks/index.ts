// Gateway hooks: HOOK.yaml folders under HERMES_HOME/hooks, loaded only by the gateway.

export { type HookFolderHash, hashHookFolder } from '@hermes/plugins';
export { dryRunHost, type HookHost, hookApi } from './api.js';
export { attachGatewayHooks, attachGatewayHookThreads, type GatewayHookThreads } from './attach.js';
export {
  approveGatewayHook,
  type FilteredGatewayHooks,
  filterApprovedHooks,
  type GatewayHookConsent,
  type GatewayHookConsentState,
  gatewayHookConsent,
  type PendingGatewayHook,
  pendingMessage,
  pendingReason,
} from './consent.js';
export { type DiscoveredGatewayHooks, discoverGatewayHooks, type GatewayHookSpec, HANDLER_FILES } from './discover.js';
export { DEFAULT_FAULT_LIMIT, FaultCounter, type FaultLimit } from './hook-faults.js';
export { GatewayHookWorker, type HookWorkerOptions } from './hook-worker-host.js';
export { type LoadedGatewayHook, loadGatewayHooks } from './load.js';
export { type GatewayHookManifest, HookManifestError, isGatewayEventPattern, parseHookManifest } from './manifest.js';
export { exampleContext, type GatewayHookTestResult, testGatewayHooks } from './test-hooks.js';
