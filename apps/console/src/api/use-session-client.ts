import { useMemo, useRef } from "react";
import type { ConsoleSession } from "./session-api.js";

/**
 * The API client of a session, made once per session: the app passes a new `onSessionEnded` on
 * each render, which is read through a ref so that the views' effects (which depend on the client)
 * do not fetch again on every render.
 */
export function useSessionClient<Client>(
  session: ConsoleSession,
  onSessionEnded: () => void,
  create: (session: ConsoleSession, onSessionEnded: () => void) => Client,
): Client {
  const ended = useRef(onSessionEnded);
  ended.current = onSessionEnded;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `create` is a module-level factory.
  return useMemo(() => create(session, () => ended.current()), [session]);
}
