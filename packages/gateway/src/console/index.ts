// The operator console's server side (routes under /console/api/, the static pages) and the
// session and CSRF checks the web chat shares.
export {
  ConsoleAuth,
  CSRF_HEADER,
  checkCsrf,
  consoleAuthOf,
  consoleSession,
  readCookie,
  requestProto,
  sameOrigin,
} from './auth.js';
export { CONSOLE_CSP, SECURITY_HEADERS } from './headers.js';
export { type ConsoleLogRecord, LOG_RING_SIZE, LogRing } from './log-ring.js';
export { type MetricsSample, MetricsSampler } from './metrics-sampler.js';
export type {
  ConsolePairingPort,
  ConsolePluginRow,
  ConsolePluginsPort,
  ConsoleServerOptions,
  ConsoleSessionRow,
  ConsoleSessionsPort,
  ConsoleTrustPort,
  ConsoleTrustRow,
} from './ports.js';
export { SESSION_COOKIE } from './session-store.js';
