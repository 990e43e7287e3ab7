// The console's built files (index.html, console.js, console.css, chat.html, chat.js), for the gateway to serve.
import { fileURLToPath } from 'node:url';

/** Absolute path of the console's dist/ folder. */
export const CONSOLE_DIST = fileURLToPath(new URL('./dist/', import.meta.url));
