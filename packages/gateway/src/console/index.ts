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
export { SESSION_COOKIE } from './session-store.js';
