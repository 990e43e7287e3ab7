/** The `/compress` reply (the gateway's and `hermes chat`'s): what the context engine did. */
import type { FitReport } from './context-window.js';

export function compressText(report: FitReport): string {
  const sizes = `${report.messagesBefore} → ${report.messagesAfter} messages, about ${report.tokensBefore} → ${report.tokensAfter} tokens`;
  return report.compressed
    ? `Compressed: ${sizes} (the full transcript is kept).`
    : `Nothing compressed: ${report.reason ?? 'nothing to do'} (${report.messagesBefore} messages, about ${report.tokensBefore} tokens).`;
}
