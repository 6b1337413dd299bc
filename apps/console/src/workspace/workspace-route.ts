import { useEffect, useState } from "react";

/** The views of a workspace session, each at its own hash so it deep-links and back/forward work. */
export type WorkspaceRoute = "library" | "settings/sources" | "settings/upload-tokens" | "usage";

export const ROUTE_HASHES: Record<WorkspaceRoute, string> = {
  library: "#/library",
  "settings/sources": "#/settings/sources",
  "settings/upload-tokens": "#/settings/upload-tokens",
  usage: "#/usage",
};

/**
 * The route a location hash names. Unknown or empty hashes show the library, the default view;
 * `#/settings` alone is its first tab.
 */
export function routeOf(hash: string): WorkspaceRoute {
  const path = hash.replace(/^#\/?/, "").replace(/\/+$/, "");
  if (path === "settings") return "settings/sources";
  return (Object.keys(ROUTE_HASHES) as WorkspaceRoute[]).find((route) => route === path) ?? "library";
}

/**
 * The current route, following `hashchange` (links, back and forward). A hash route needs nothing
 * from the server: every view is under the one /console page the server serves.
 */
export function useWorkspaceRoute(): WorkspaceRoute {
  const [route, setRoute] = useState(() => routeOf(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(window.location.hash));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  return route;
}
