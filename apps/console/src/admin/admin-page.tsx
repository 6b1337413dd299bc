import { createAdminSessionClient } from "../api/admin-session-client.js";
import type { ConsoleSession } from "../api/session-api.js";
import { useSessionClient } from "../api/use-session-client.js";
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
  const api = useSessionClient(session, onSessionEnded, createAdminSessionClient);
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
