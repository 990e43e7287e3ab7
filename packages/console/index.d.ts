/** Absolute path of the console's dist/ folder (index.html, console.js, console.css, chat.html, chat.js). */
export declare const CONSOLE_DIST: string;
