// Web tools: web_search / web_extract over the provider registry, the SSRF guard, the guarded fetch.
export {
  type AddressKind,
  type AddressRange,
  BLOCKED_RANGES,
  blockedAddress,
  describeBlocked,
} from './address-ranges.js';
export { callWithDeadline, DeadlineError } from './call-with-deadline.js';
export { decodeBody, isHtml, isTextual, mediaType } from './decode-body.js';
export { checkExtractEnvelope, checkSearchEnvelope, type EnvelopeCheck } from './envelopes.js';
export {
  capabilityKey,
  type RouteVia,
  routeWebCall,
  type WebProviderSource,
  type WebRoute,
  type WebRoutingConfig,
} from './provider-routing.js';
export { createSafeDownload, type DownloadedFile, type SafeDownload } from './safe-download.js';
export { createSafeFetch, MAX_REDIRECTS, type SafeFetchOptions, WEB_USER_AGENT } from './safe-fetch.js';
export {
  bareHost,
  parseWebUrl,
  type ResolvedAddress,
  type Resolver,
  systemResolver,
  type UrlPolicy,
  vetHost,
  vetUrl,
} from './url-guard.js';
export * from './web-tool-schemas.js';
export { createWebTools, type WebToolsConfig, type WebToolsOptions } from './web-tools.js';
