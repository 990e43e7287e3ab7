// Runs one console action (a POST) and keeps its outcome for display.
import { useState } from 'preact/hooks';

export function useAction(): {
  message: string | null;
  error: string | null;
  run(label: string, fn: () => Promise<unknown>, after?: () => void): Promise<void>;
} {
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function run(label: string, fn: () => Promise<unknown>, after?: () => void): Promise<void> {
    setError(null);
    setMessage(null);
    try {
      await fn();
      setMessage(label);
      after?.();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return { message, error, run };
}
