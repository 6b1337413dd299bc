import type { FileListItem, TroveClient } from "@trove/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { type FileQuery, listQueryOf, PAGE_SIZE } from "./file-query.js";

export interface FilePages {
  /** Files matching the query (from the first page's meta); null until it answers. */
  total: number | null;
  /** The file at an index, or undefined while its page is not loaded. */
  at(index: number): FileListItem | undefined;
  /** Loads the pages holding indexes first..last (those not loaded or loading yet). */
  ensure(first: number, last: number): void;
  error: string | null;
  /** Drops every loaded page and starts again from page 1 (after an upload or a delete). */
  reload(): void;
}

/**
 * The file list as sparse pages: only the pages the grid shows are fetched, so scrolling to row
 * 90,000 asks for that page, not the 900 before it. A new query (or reload) starts a new
 * generation; answers of an older one are dropped.
 */
export function useFilePages(client: TroveClient, query: FileQuery): FilePages {
  const pages = useRef(new Map<number, FileListItem[]>());
  const loading = useRef(new Set<number>());
  const generation = useRef(0);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setVersion] = useState(0);
  const [reloads, setReloads] = useState(0);

  const load = useCallback(
    (page: number) => {
      if (pages.current.has(page) || loading.current.has(page)) return;
      const mine = generation.current;
      loading.current.add(page);
      client.files.list(listQueryOf(query, page)).then(
        (answer) => {
          if (generation.current !== mine) return;
          loading.current.delete(page);
          pages.current.set(page, answer.files);
          setTotal(answer.meta.total);
          setVersion((version) => version + 1);
        },
        (caught: unknown) => {
          if (generation.current !== mine) return;
          loading.current.delete(page);
          setError(caught instanceof Error ? caught.message : String(caught));
        },
      );
    },
    [client, query],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` restarts the list on purpose.
  useEffect(() => {
    generation.current += 1;
    pages.current = new Map();
    loading.current = new Set();
    setTotal(null);
    setError(null);
    load(1);
  }, [load, reloads]);

  const ensure = useCallback(
    (first: number, last: number) => {
      if (last < first) return;
      for (let page = pageOf(first); page <= pageOf(last); page++) load(page);
    },
    [load],
  );

  return {
    total,
    at: (index) => pages.current.get(pageOf(index))?.[index % PAGE_SIZE],
    ensure,
    error,
    reload: useCallback(() => setReloads((count) => count + 1), []),
  };
}

function pageOf(index: number): number {
  return Math.floor(index / PAGE_SIZE) + 1;
}
