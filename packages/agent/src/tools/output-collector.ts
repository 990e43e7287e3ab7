/** Memory bound for one command's raw output; beyond it the middle is dropped before any hook sees it. */
export const RAW_OUTPUT_LIMIT_BYTES = 16 * 1024 * 1024;

export interface OutputCollector {
  /** appends a chunk in arrival order */
  push(chunk: Buffer): void;
  /** everything pushed, decoded as UTF-8; a marker replaces the middle when over the limit */
  text(): string;
}

/** Collects stdout and stderr chunks in arrival order, keeping at most `limitBytes` (half head, half tail). */
export function createOutputCollector(limitBytes: number = RAW_OUTPUT_LIMIT_BYTES): OutputCollector {
  const headLimit = Math.floor(limitBytes / 2);
  const tailLimit = limitBytes - headLimit;
  const head: Buffer[] = [];
  const tail: Buffer[] = [];
  let headBytes = 0;
  let tailBytes = 0;
  let totalBytes = 0;

  return {
    push(chunk) {
      totalBytes += chunk.length;
      let rest = chunk;
      if (headBytes < headLimit) {
        const part = rest.subarray(0, headLimit - headBytes);
        head.push(part);
        headBytes += part.length;
        rest = rest.subarray(part.length);
      }
      if (rest.length === 0) return;
      tail.push(rest);
      tailBytes += rest.length;
      while (tail.length > 1 && tailBytes - (tail[0]?.length ?? 0) >= tailLimit) {
        tailBytes -= tail.shift()?.length ?? 0;
      }
    },
    text() {
      const headText = Buffer.concat(head).toString('utf8');
      const tailBuffer = Buffer.concat(tail);
      const kept = tailBuffer.subarray(Math.max(0, tailBuffer.length - tailLimit));
      const dropped = totalBytes - headBytes - kept.length;
      if (dropped <= 0) return Buffer.concat([...head, ...tail]).toString('utf8');
      return `${headText}\n\n[... ${dropped} bytes of output dropped ...]\n\n${kept.toString('utf8')}`;
    },
  };
}
