import {
  createUploadClient,
  localStorageSessionStore,
  type ResumableStore,
  resumable,
  type SessionStore,
  TroveError,
  type TroveUploadClient,
  type UploadClientOptions,
  type UploadTokenSource,
} from "@trove/sdk/upload";
import { type ReactNode, useMemo, useRef } from "react";
import { TroveContext, type TroveContextValue } from "./trove-context.js";

/** Client options the provider passes through (timeouts, retries, part concurrency, fetch, …). */
export type TroveClientOptions = Omit<
  UploadClientOptions,
  "apiKey" | "token" | "baseUrl" | "assetsUrl" | "workspaceNo" | "sessionStore"
>;

export interface TroveProviderProps {
  /** The API host, e.g. `https://api.example.com`. Needed to upload. */
  baseUrl?: string;
  /** The delivery host, for `<TroveImage>`, e.g. `https://api.example.com/assets`. */
  assetsUrl?: string;
  /** Your `workspace_no`, for images of a source's origin. */
  workspaceNo?: string;
  /** A public key (`trove_pk_…`): it may only upload. Or use `token`. */
  publicKey?: string;
  /**
   * An upload token, or a function that fetches one from your backend; it is called once per
   * file. Read on every upload, so an inline arrow function is fine.
   */
  token?: UploadTokenSource;
  /**
   * Keep multipart sessions so that a large upload interrupted by a reload continues when the
   * same file is chosen again: `true` (default) keeps them in localStorage, `false` turns it
   * off, or pass your own store (IndexedDB, …).
   */
  resume?: boolean | SessionStore;
  /** Further client options (timeouts, retries, parts in flight, a custom fetch), read when the client is made. */
  clientOptions?: TroveClientOptions;
  /** An upload client you made yourself; the options above but `assetsUrl`/`workspaceNo` are then unused. */
  client?: TroveUploadClient;
  children?: ReactNode;
}

/**
 * Configures Trove for the components below it. Nothing runs at render: the upload client is made
 * when the first upload starts (so server rendering touches no browser API), and again only when
 * `baseUrl`, the key, the kind of `token` or `resume` change.
 */
export function TroveProvider({
  baseUrl,
  assetsUrl,
  workspaceNo,
  publicKey,
  token,
  resume = true,
  clientOptions,
  client,
  children,
}: TroveProviderProps) {
  // Kept in refs: an inline `token={() => …}` or options object is new on every render, and a new
  // client per render would be wasted work. The token function is read per upload, the options
  // when the client is made.
  const tokenRef = useRef(token);
  tokenRef.current = token;
  const optionsRef = useRef(clientOptions);
  optionsRef.current = clientOptions;
  const tokenKind = token === undefined ? "none" : typeof token === "string" ? token : "function";

  const sessionStore = useMemo(
    // The upload client resumes only from a store that brings the resume code (resumable()).
    () => (resume === true ? lazyLocalStorageStore() : resume === false ? undefined : resumable(resume)),
    [resume],
  );
  const getClient = useMemo(() => {
    let made: TroveUploadClient | undefined = client;
    return () => {
      const tokenSource =
        tokenKind === "function"
          ? () => tokenOf(tokenRef.current)
          : tokenKind === "none"
            ? undefined
            : tokenKind;
      made ??= makeClient(baseUrl, publicKey, tokenSource, {
        ...optionsRef.current,
        ...(sessionStore ? { sessionStore } : {}),
      });
      return made;
    };
  }, [client, baseUrl, publicKey, tokenKind, sessionStore]);

  const value = useMemo<TroveContextValue>(
    () => ({ getClient, sessionStore, assetsUrl, workspaceNo }),
    [getClient, sessionStore, assetsUrl, workspaceNo],
  );
  return <TroveContext.Provider value={value}>{children}</TroveContext.Provider>;
}

/** localStorage looked up on the first read or write, which only uploads and effects make: not at render. */
function lazyLocalStorageStore(): ResumableStore {
  let store: SessionStore | undefined;
  const real = () => {
    store ??= localStorageSessionStore();
    return store;
  };
  return resumable({
    get: (key) => real().get(key),
    set: (key, session) => real().set(key, session),
    delete: (key) => real().delete(key),
    list: () => real().list?.() ?? Promise.resolve([]),
  });
}

function tokenOf(source: UploadTokenSource | undefined): string | Promise<string> {
  // The prop went from a function to nothing while the client lived: fail this upload clearly.
  if (source === undefined)
    throw new TroveError("TroveProvider has no token any more", { code: "TOKEN_UNAVAILABLE" });
  return typeof source === "string" ? source : source();
}

function makeClient(
  baseUrl: string | undefined,
  publicKey: string | undefined,
  token: UploadTokenSource | undefined,
  options: TroveClientOptions & { sessionStore?: SessionStore },
): TroveUploadClient {
  if (!baseUrl || (!publicKey && !token)) {
    throw new TroveError("TroveProvider needs baseUrl and a publicKey or token to upload", {
      code: "INVALID_ARGUMENT",
    });
  }
  return token
    ? createUploadClient({ ...options, baseUrl, token })
    : createUploadClient({ ...options, baseUrl, apiKey: publicKey! });
}
