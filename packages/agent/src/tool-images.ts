/**
 * The images tools show the model (`ToolContext.attachImage`, e.g. a browser screenshot). A tool
 * message can only hold text, so each request carries them as a user message right after the tool
 * results of their step: a text part naming each image, then its `image_url` part, a data: URL read
 * from the file when the request is built. Only the request has them: the transcript keeps the
 * tools' text results (which name the files), as it keeps a note for the images users send.
 */
import { readFile } from 'node:fs/promises';
import type { ToolImage } from '@hermes/protocol';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { ImageMode, RequestMessage } from './user-content.js';

interface Attached extends ToolImage {
  tool: string;
}

/** One turn's tool images, by tool call id. */
export class ToolImages {
  readonly #byCall = new Map<string, Attached[]>();
  #mode: ImageMode;
  /** data: URLs already read this turn, by path */
  readonly #read = new Map<string, string>();

  /** `parts`: shown to the model; `notes`: refused (model.vision off), the tool's result names the file */
  constructor(mode: ImageMode) {
    this.#mode = mode;
  }

  /** Records an image of call `callId` (tool `tool`); false when it will not be shown. */
  attach(callId: string, tool: string, image: ToolImage): boolean {
    if (this.#mode !== 'parts') return false;
    this.#byCall.set(callId, [...(this.#byCall.get(callId) ?? []), { ...image, tool }]);
    return true;
  }

  /** True when a request built now would carry images. */
  get any(): boolean {
    return this.#mode === 'parts' && this.#byCall.size > 0;
  }

  /** The model refused image input: none is sent from now on (the results still name the files). */
  refuse(): void {
    this.#mode = 'notes';
    this.#byCall.clear();
  }

  /** `messages` with, after each run of tool results that attached images, a user message carrying them. */
  async into(messages: readonly RequestMessage[]): Promise<RequestMessage[]> {
    if (!this.any) return [...messages];
    const out: RequestMessage[] = [];
    let pending: Attached[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      out.push({ role: 'user', content: await this.#parts(pending) });
      pending = [];
    };
    for (const message of messages) {
      if (message.role !== 'tool') await flush();
      out.push(message);
      if (message.role === 'tool') pending.push(...(this.#byCall.get(message.tool_call_id) ?? []));
    }
    await flush();
    return out;
  }

  async #parts(images: readonly Attached[]): Promise<ChatCompletionContentPart[]> {
    const parts: ChatCompletionContentPart[] = [];
    for (const image of images) {
      let url = this.#read.get(image.path);
      if (url === undefined) {
        try {
          url = `data:${image.mimeType};base64,${(await readFile(image.path)).toString('base64')}`;
          this.#read.set(image.path, url);
        } catch {
          parts.push({ type: 'text', text: `[image from ${image.tool} is gone: ${image.path}]` });
          continue;
        }
      }
      parts.push({ type: 'text', text: `[image from ${image.tool}: ${image.path}]` });
      parts.push({ type: 'image_url', image_url: { url } });
    }
    return parts;
  }
}
