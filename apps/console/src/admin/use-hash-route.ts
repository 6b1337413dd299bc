import { useEffect, useState } from "react";

/** The admin view's places, read from the URL's hash so each one can be linked to and reloaded. */
export type AdminRoute =
  | { view: "workspaces" }
  | { view: "workspace"; workspaceNo: string; tab: WorkspaceTab };

export const WORKSPACE_TABS = ["keys", "webhooks", "transforms", "settings"] as const;
export type WorkspaceTab = (typeof WORKSPACE_TABS)[number];

/** `#/admin/workspaces/<no>/<tab>`; anything else is the workspaces table. */
export function parseAdminHash(hash: string): AdminRoute {
  const match = /^#\/admin\/workspaces\/([^/]+)(?:\/([a-z]+))?\/?$/.exec(hash);
  if (!match?.[1]) return { view: "workspaces" };
  let workspaceNo: string;
  try {
    workspaceNo = decodeURIComponent(match[1]);
  } catch {
    return { view: "workspaces" };
  }
  const tab = WORKSPACE_TABS.find((candidate) => candidate === match[2]) ?? "keys";
  return { view: "workspace", workspaceNo, tab };
}

export function workspaceHref(workspaceNo: string, tab: WorkspaceTab = "keys"): string {
  return `#/admin/workspaces/${encodeURIComponent(workspaceNo)}/${tab}`;
}

export const WORKSPACES_HREF = "#/admin/workspaces";

/** The current route, following the hash as links and the back button change it. */
export function useAdminRoute(): AdminRoute {
  const [route, setRoute] = useState(() => parseAdminHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseAdminHash(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
