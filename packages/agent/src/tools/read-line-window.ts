import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface LineWindowRequest {
  /** 1-based number of the first line to return */
  offset: number;
  /** how many lines to return at most */
  limit: number;
  /** content budget; whole lines are kept while they fit, a first line longer than this is cut */
  maxChars: number;
}

export interface LineWindow {
  content: string;
  totalLines: number;
  /** true when the file has content after what `content` holds */
  truncated: boolean;
  /** the first line not (fully) returned, when truncated by lines */
  nextOffset: number | undefined;
}

/** Streams a text file once: returns lines offset..offset+limit-1 within `maxChars`, and counts every line. */
export async function readLineWindow(filePath: string, request: LineWindowRequest): Promise<LineWindow> {
  const lines: string[] = [];
  let chars = 0;
  let totalLines = 0;
  let cut = false;
  let nextOffset: number | undefined;
  const input = createReadStream(filePath, { encoding: 'utf8' });
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of reader) {
      totalLines += 1;
      if (totalLines < request.offset || nextOffset !== undefined) continue;
      const separatorChars = lines.length > 0 ? 1 : 0;
      if (lines.length >= request.limit || chars + separatorChars + line.length > request.maxChars) {
        if (lines.length === 0) {
          lines.push(line.slice(0, request.maxChars));
          cut = true;
          nextOffset = totalLines + 1;
        } else {
          nextOffset = totalLines;
        }
        continue;
      }
      lines.push(line);
      chars += separatorChars + line.length;
    }
  } finally {
    reader.close();
    input.destroy();
  }
  const moreLines = nextOffset !== undefined && nextOffset <= totalLines;
  return {
    content: lines.join('\n'),
    totalLines,
    truncated: cut || moreLines,
    nextOffset: moreLines ? nextOffset : undefined,
  };
}
