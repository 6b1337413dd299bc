import { useCallback, useEffect, useState } from "react";
import { errorText } from "./error-text.js";

/**
 * Data one admin panel reads (loaded now and on `reload`), the last error as text, and `act`:
 * runs a change, reloads after it, and shows its error instead of throwing.
 */
export function useAdminData<T>(read: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await read());
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  }, [read]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const act = useCallback(
    async (change: () => Promise<unknown>): Promise<boolean> => {
      try {
        await change();
      } catch (caught) {
        setError(errorText(caught));
        return false;
      }
      await reload();
      return true;
    },
    [reload],
  );
  return { data, setData, error, setError, reload, act };
}
