import { useMemo, useRef } from "react";
import { createAdminSessionClient } from "../api/admin-session-client.js";
import type { ConsoleSession } from "../api/session-api.js";
import "./admin.css";
import { useAdminRoute } from "./use-hash-route.js";
import { WorkspaceView } from "./workspace-view.js";
import { WorkspacesView } from "./workspaces-view.js";

/** The admin-token session's view: workspaces, their keys, webhooks, named transforms and quotas. */
export function AdminPage({
  session,
  onSessionEnded,
}: {
  session: ConsoleSession;
  onSessionEnded: () => void;
}) {
  // The app passes a new callback on each render; the client is made once per session, so the
  // views' effects (which depend on it) do not fetch again on every render.
  const ended = useRef(onSessionEnded);
  ended.current = onSessionEnded;
  const api = useMemo(() => createAdminSessionClient(session, () => ended.current()), [session]);
  const route = useAdminRoute();
  return (
    <main className="admin">
      {route.view === "workspace" ? (
        <WorkspaceView key={route.workspaceNo} api={api} workspaceNo={route.workspaceNo} tab={route.tab} />
      ) : (
        <WorkspacesView api={api} />
      )}
    </main>
  );
}
