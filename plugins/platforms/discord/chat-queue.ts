/** Runs inbound work one at a time per chat, so a slow message (a download) never lets a later one overtake it. */

export interface ChatQueue {
  /** runs `task` after every task queued before it for `chatKey`; rejects as `task` does */
  run<T>(chatKey: string, task: () => Promise<T>): Promise<T>;
}

/** Creates an empty queue; a chat's entry is dropped once its last task settles. */
export function createChatQueue(): ChatQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(chatKey, task) {
      const previous = tails.get(chatKey) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(chatKey, tail);
      void tail.then(() => {
        if (tails.get(chatKey) === tail) tails.delete(chatKey);
      });
      return result;
    },
  };
}
