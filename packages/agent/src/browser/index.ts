// The browser tool: headless Chromium per session behind web_extract's SSRF gate and the file roots.
export { BrowserPool, type BrowserPoolOptions, BrowserUnavailableError, VIEWPORT } from './browser-pool.js';
export { BROWSER_ACTIONS, BROWSER_TOOL, type BrowserToolOptions, createBrowserTool } from './browser-tool.js';
export { type BrowserConfig, type BrowserSetup, createBrowser } from './create-browser.js';
export { CHROMIUM_NAMES, type ChromiumLookup, findChromium } from './find-chromium.js';
export { judgeNavigation, judgeUrl, type Verdict } from './request-guard.js';
export { REFUSED_HEADER, startVettingProxy, type VettingProxy, type VettingProxyOptions } from './vetting-proxy.js';
