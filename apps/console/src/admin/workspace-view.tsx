import type { TroveAdminClient } from "@trove/sdk/admin";
import { useCallback } from "react";
import { ErrorLine } from "./error-line.js";
import { KeysView } from "./keys-view.js";
import { SettingsView } from "./settings-view.js";
import { TransformsView } from "./transforms-view.js";
import { useAdminData } from "./use-admin-data.js";
import { WORKSPACE_TABS, WORKSPACES_HREF, type WorkspaceTab, workspaceHref } from "./use-hash-route.js";
import { WebhooksView } from "./webhooks-view.js";

const TAB_LABELS: Record<WorkspaceTab, string> = {
  keys: "Keys",
  webhooks: "Webhooks",
  transforms: "Named transforms",
  settings: "Settings",
};

/** One workspace: its sections are links (`#/admin/workspaces/<no>/<tab>`), so each one deep-links. */
export function WorkspaceView({
  api,
  workspaceNo,
  tab,
}: {
  api: TroveAdminClient;
  workspaceNo: string;
  tab: WorkspaceTab;
}) {
  const read = useCallback(() => api.workspaces.get(workspaceNo), [api, workspaceNo]);
  const { data: workspace, setData: setWorkspace, error } = useAdminData(read);

  return (
    <section className="admin__section" aria-labelledby="workspace-title">
      <p>
        <a href={WORKSPACES_HREF}>← All workspaces</a>
      </p>
      <h1 id="workspace-title">
        {workspace ? workspace.name : "Workspace"} <code className="muted">{workspaceNo}</code>
      </h1>
      <ErrorLine error={error} />
      <nav aria-label="Workspace sections" className="admin__tabs">
        <ul>
          {WORKSPACE_TABS.map((candidate) => (
            <li key={candidate}>
              <a
                href={workspaceHref(workspaceNo, candidate)}
                aria-current={candidate === tab ? "page" : undefined}
              >
                {TAB_LABELS[candidate]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {workspace === null ? null : tab === "keys" ? (
        <KeysView api={api} workspaceNo={workspaceNo} />
      ) : tab === "webhooks" ? (
        <WebhooksView api={api} workspaceNo={workspaceNo} />
      ) : tab === "transforms" ? (
        <TransformsView api={api} workspaceNo={workspaceNo} />
      ) : (
        <SettingsView api={api} workspace={workspace} onSaved={setWorkspace} />
      )}
    </section>
  );
}
