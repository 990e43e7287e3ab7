/** Bounded concurrency for a provider's per-URL work. */

/** Runs `fn` over `items` with at most `limit` at a time; the results keep the items' order. Rejects with the first rejection. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  const queue = items.entries(); // one iterator shared by the workers: each item is taken once
  const worker = async (): Promise<void> => {
    for (const [i, item] of queue) out[i] = await fn(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
