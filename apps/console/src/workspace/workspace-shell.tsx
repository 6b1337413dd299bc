import { lazy, Suspense, useEffect } from "react";
import type { ConsoleSession } from "../api/session-api.js";
import { createSessionClient } from "../api/session-client.js";
import { useSessionClient } from "../api/use-session-client.js";
import { ROUTE_HASHES, useWorkspaceRoute, type WorkspaceRoute } from "./workspace-route.js";

// Each view is its own chunk: the library's grid and uploader are not loaded to read usage, nor
// the settings forms to browse files.
const LibraryPage = lazy(() =>
  import("../library/library-page.js").then((module) => ({ default: module.LibraryPage })),
);
const SourcesPage = lazy(() =>
  import("../settings/sources-page.js").then((module) => ({ default: module.SourcesPage })),
);
const UploadTokensPage = lazy(() =>
  import("../settings/upload-tokens-page.js").then((module) => ({ default: module.UploadTokensPage })),
);
const UsagePage = lazy(() =>
  import("../usage/usage-page.js").then((module) => ({ default: module.UsagePage })),
);

const TITLES: Record<WorkspaceRoute, string> = {
  library: "Library",
  "settings/sources": "Sources",
  "settings/upload-tokens": "Upload tokens",
  usage: "Usage",
};

/** A workspace session: the views' navigation and the view the location's hash names. */
export function WorkspaceShell({
  session,
  onSessionEnded,
}: {
  session: ConsoleSession;
  onSessionEnded: () => void;
}) {
  const client = useSessionClient(session, onSessionEnded, createSessionClient);
  const route = useWorkspaceRoute();
  const inSettings = route.startsWith("settings/");
  useEffect(() => {
    document.title = `${TITLES[route]} · Trove console`;
  }, [route]);

  return (
    <div className="workspace">
      <nav className="workspace-nav" aria-label="Workspace">
        <ul>
          <NavLink route="library" current={route === "library"} label="Library" />
          <NavLink route="settings/sources" current={inSettings} label="Settings" />
          <NavLink route="usage" current={route === "usage"} label="Usage" />
        </ul>
        {inSettings ? (
          <ul aria-label="Settings">
            <NavLink route="settings/sources" current={route === "settings/sources"} label="Sources" />
            <NavLink
              route="settings/upload-tokens"
              current={route === "settings/upload-tokens"}
              label="Upload tokens"
            />
          </ul>
        ) : null}
      </nav>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        {route === "library" ? (
          <LibraryPage client={client} />
        ) : route === "settings/sources" ? (
          <SourcesPage client={client} workspaceNo={session.workspace_no ?? ""} />
        ) : route === "settings/upload-tokens" ? (
          <UploadTokensPage client={client} />
        ) : (
          <UsagePage client={client} />
        )}
      </Suspense>
    </div>
  );
}

/** A plain link to the view's hash (the browser's history does back/forward); marked when current. */
function NavLink(props: { route: WorkspaceRoute; current: boolean; label: string }) {
  return (
    <li>
      <a href={ROUTE_HASHES[props.route]} aria-current={props.current ? "page" : undefined}>
        {props.label}
      </a>
    </li>
  );
}
