// The web-provider kit: what every web search/extract provider needs and should not write again.

export {
  failedPage,
  hitsOf,
  pagesAnswer,
  type SearchHitFields,
  searchAnswer,
  webFailure,
  webProviderError,
} from './envelopes.js';
export { mapLimit } from './map-limit.js';
export { ApiWebProvider, WebProviderBase } from './provider-base.js';
export {
  apiErrorMessage,
  apiUrl,
  asArray,
  asObject,
  asObjects,
  asString,
  causeCode,
  countWithin,
  envValue,
  errorText,
  readLimited,
  requestJson,
  WEB_API_MAX_BYTES,
  WebApiError,
  type WebApiRequest,
} from './web-api.js';
export { bearerAuth, headerAuth, type ProviderEnv, WebApiClient, type WebApiSpec } from './web-api-client.js';
