/**
 * Action buttons (a cron job's *Cancel*): the actions a button the gateway posted may carry, each
 * with its handler, and a press resolved to who pressed (their owner through identity links, and
 * their tier) before the handler decides. Posting: with native buttons where the platform has
 * them (`sendButtons`), as plain text (which says the text way) elsewhere or when that fails.
 */
import type {
  ActionButton,
  ActionPress,
  ActionPressResult,
  Logger,
  PlatformAdapter,
  SendResult,
} from '@hermes/protocol';
import type { Tier } from '../access/access-settings.js';
import type { GatewayAccess } from '../access/gateway-access.js';
import { identityOfWho } from '../users/identity.js';
import type { DeliveryTarget } from './deliver.js';

/** Who pressed: the owner of their identity (identity links resolved) and their tier. */
export interface Presser {
  owner: string;
  tier: Tier;
}

/** Acts on a press; resolves with the text shown to the presser. */
export type ActionHandler = (press: ActionPress, presser: Presser) => Promise<string>;

export interface ActionButtonPorts {
  /** the store's identity links */
  users: { ownerOf(identity: string): Promise<string> };
  access: Pick<GatewayAccess, 'userOf'>;
  logger: Logger;
}

export const UNKNOWN_ACTION_TEXT = 'This button is not in use any more.';

export class ActionButtons {
  readonly #ports: ActionButtonPorts;
  readonly #handlers = new Map<string, ActionHandler>();

  constructor(ports: ActionButtonPorts) {
    this.#ports = ports;
  }

  /** Handles presses of buttons carrying `action` (one handler per action; a later one replaces it). */
  register(action: string, handler: ActionHandler): void {
    this.#handlers.set(action, handler);
  }

  async press(press: ActionPress): Promise<ActionPressResult> {
    const handler = this.#handlers.get(press.action);
    if (handler === undefined) return { text: UNKNOWN_ACTION_TEXT };
    try {
      const { platform, userId } = press;
      const owner = await this.#ports.users.ownerOf(identityOfWho(platform, userId));
      const { tier } = await this.#ports.access.userOf({ platform, userId });
      return { text: await handler(press, { owner, tier }) };
    } catch (err) {
      this.#ports.logger.warn({ err, action: press.action }, 'action button: the press failed');
      return { text: 'That did not work; the gateway logged why. Try again in a moment.' };
    }
  }
}

/**
 * Posts `text` with `buttons` to `target` where its platform has buttons; otherwise (or when that
 * send fails) `fallback` (Markdown through the delivery path). Never throws on a failed send.
 */
export async function postWithButtons(
  ports: {
    adapters: Pick<ReadonlyMap<string, PlatformAdapter>, 'get'>;
    sendText(target: DeliveryTarget, markdown: string): Promise<unknown>;
  },
  target: DeliveryTarget,
  message: { text: string; buttons: readonly ActionButton[]; fallback: string },
): Promise<void> {
  const adapter = ports.adapters.get(target.platform);
  if (adapter?.sendButtons) {
    const sent: SendResult = await adapter.sendButtons({
      chatId: target.chatId,
      ...(target.threadId === undefined ? {} : { threadId: target.threadId }),
      text: message.text,
      buttons: message.buttons,
    });
    if (sent.ok) return;
  }
  await ports.sendText(target, message.fallback);
}
