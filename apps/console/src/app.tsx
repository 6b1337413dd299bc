import { lazy, Suspense, useEffect, useState } from "react";
import { type ConsoleSession, readSession, SessionError, signOut } from "./api/session-api.js";
import { SignInPage } from "./sign-in/sign-in-page.js";
import { ThemeToggle } from "./theme/theme-toggle.js";

// Loaded after sign-in: the sign-in page needs none of the SDK, the uploader or the grid.
const WorkspaceShell = lazy(() =>
  import("./workspace/workspace-shell.js").then((module) => ({ default: module.WorkspaceShell })),
);
const AdminPage = lazy(() =>
  import("./admin/admin-page.js").then((module) => ({ default: module.AdminPage })),
);

type SessionState =
  | { status: "loading" }
  | { status: "signed-out" }
  | { status: "signed-in"; session: ConsoleSession };

/** Reads the session once on load (the cookie may still be alive), then shows sign-in or the library. */
export function App() {
  const [state, setState] = useState<SessionState>({ status: "loading" });
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    readSession().then(
      (session) => setState(session ? { status: "signed-in", session } : { status: "signed-out" }),
      (error: unknown) => {
        setLoadError(error instanceof Error ? error.message : String(error));
        setState({ status: "signed-out" });
      },
    );
  }, []);

  const onSignOut = async (session: ConsoleSession) => {
    try {
      await signOut(session.csrf_token);
    } catch (error) {
      // An expired session is already signed out; anything else is shown, and the page still leaves.
      if (!(error instanceof SessionError && error.status === 401)) {
        setLoadError(error instanceof Error ? error.message : String(error));
      }
    }
    setState({ status: "signed-out" });
  };

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Trove console</span>
        {state.status === "signed-in" ? (
          <span className="topbar__who">
            {state.session.kind === "admin"
              ? "Admin"
              : `Workspace ${state.session.workspace_name ?? state.session.workspace_no ?? ""}`}
          </span>
        ) : null}
        <span className="topbar__spacer" />
        <ThemeToggle />
        {state.status === "signed-in" ? (
          <button type="button" onClick={() => void onSignOut(state.session)}>
            Sign out
          </button>
        ) : null}
      </header>
      {loadError ? (
        <p role="alert" className="error">
          {loadError}
        </p>
      ) : null}
      {state.status === "loading" ? (
        <p className="loading">Loading…</p>
      ) : state.status === "signed-out" ? (
        <SignInPage
          onSignedIn={(session) => {
            setLoadError(null);
            setState({ status: "signed-in", session });
          }}
        />
      ) : state.session.kind === "workspace" ? (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <WorkspaceShell
            session={state.session}
            onSessionEnded={() => {
              setLoadError("Your session has ended: sign in again");
              setState({ status: "signed-out" });
            }}
          />
        </Suspense>
      ) : (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <AdminPage
            session={state.session}
            onSessionEnded={() => {
              setLoadError("Your session has ended: sign in again");
              setState({ status: "signed-out" });
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
