import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { NodeUploadInput, TroveClient } from "@trove/sdk/node";
import { fileListOutput } from "../tools/file-list-output.js";
import { slicePage } from "../tools/page-input.js";

export const FOLDERS_URI = "trove://folders";
export const RECENT_FILES_URI = "trove://files/recent";
/** A resource is read whole: it holds one page, and says where the tools go on. */
const RESOURCE_PAGE = 50;

/** The workspace's root folders and its newest files: private keys only (they list the workspace). */
export function registerWorkspaceResources(server: McpServer, client: TroveClient<NodeUploadInput>): void {
  server.registerResource(
    "folders",
    FOLDERS_URI,
    {
      title: "Folders",
      description: `The workspace's root folders (the first ${RESOURCE_PAGE}), with file counts and sizes. list_folders goes deeper.`,
      mimeType: "application/json",
    },
    async (uri) => {
      const { folders } = await client.folders.list({ sort: "name_asc" });
      const { items, page } = slicePage(folders, 1, RESOURCE_PAGE);
      return json(uri, { folders: items, total: page.total, has_more: page.has_more });
    },
  );
  server.registerResource(
    "recent-files",
    RECENT_FILES_URI,
    {
      title: "Recent files",
      description: `The ${RESOURCE_PAGE} newest files of the workspace. list_files and search_files page through the rest.`,
      mimeType: "application/json",
    },
    async (uri) => json(uri, fileListOutput(await client.files.list({ limit: RESOURCE_PAGE }))),
  );
}

function json(uri: URL, value: unknown): ReadResourceResult {
  return {
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
  };
}
