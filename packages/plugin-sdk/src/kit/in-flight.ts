/** Tracks running work (sends, event handlers) so an adapter's stop() can wait for it to settle. */

export interface InFlight {
  /** returns `task` unchanged, remembering it until it settles */
  track<T>(task: Promise<T>): Promise<T>;
  /** resolves once every tracked task has settled (fulfilled or rejected) */
  settled(): Promise<void>;
}

/** Creates an empty tracker. */
export function createInFlight(): InFlight {
  const running = new Set<Promise<unknown>>();
  return {
    track(task) {
      const settled = task.then(
        () => undefined,
        () => undefined,
      );
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return task;
    },
    async settled() {
      await Promise.all([...running]);
    },
  };
}
