// MCP servers: the client side (connections, tool registration, result text).
export { McpConnection, type McpTool } from './connection.js';
export { McpManager, type McpManagerOptions, type McpReconcileResult } from './manager.js';
export { type McpCallResult, mcpResultText } from './result-text.js';
export { filteredOut, mcpToolName } from './tool-names.js';
export * from './types.js';
