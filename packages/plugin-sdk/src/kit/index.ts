// The platform kit: what every platform adapter needs and should not write again.

export { type AdapterDeps, type AdapterKit, createAdapterKit, resolveAdapterDeps } from './adapter-kit.js';
export {
  type ApprovalButton,
  approvalButtons,
  type PressOf,
  pressApproval,
  STALE_BUTTON_TEXT,
} from './approval-buttons.js';
export { isCached, storeCached } from './attachment-cache.js';
export {
  type AttachmentFetcher,
  type AttachmentFetcherOptions,
  createAttachmentFetcher,
} from './attachment-fetcher.js';
export { abortableSleep, type BackoffPolicy, backoffDelayMs, DEFAULT_BACKOFF, type Sleep } from './backoff.js';
export { closesFence, takeFenceBody } from './code-fence.js';
export { envCredential } from './env-credential.js';
export { createInFlight, type InFlight } from './in-flight.js';
export {
  type EventFields,
  textOrMediaEvent,
  type UserMessage,
  type UserMessageFields,
  userMessage,
} from './inbound-event.js';
export { escapeAttribute, escapeHtml, type InlineHtml, type InlineHtmlDialect, inlineHtml } from './inline-html.js';
export { createIntakeRunner, type IntakeRunner, type IntakeRunnerOptions } from './intake-runner.js';
export {
  type LazyAdapterOptions,
  type LazyRoute,
  lazyAdapter,
  OPTIONAL_ADAPTER_METHODS,
  type OptionalAdapterMethod,
} from './lazy-adapter.js';
export {
  type FencedBlock,
  type FenceOpening,
  type MarkdownBlockRenderer,
  renderMarkdownBlocks,
} from './markdown-blocks.js';
export { attachmentKind, type FileFacts, pendingAttachment, safeFileName } from './pending-attachment.js';
export {
  type AdapterParts,
  createPlatformKit,
  type PlatformKit,
  type PlatformKitOptions,
} from './platform-kit.js';
export {
  isTableRow,
  isTableSeparator,
  isTableStart,
  layoutTable,
  renderTableLines,
  tableCells,
  takeTable,
} from './render-table.js';
export { type IntegerBounds, type RawSettings, type SettingsReader, settingsReader } from './settings-reader.js';
export { createStatusTracker, type StatusTracker, type StatusTrackerOptions } from './status-tracker.js';
