import { FOLDER_SORTS } from "@trove/schema";
import * as z from "zod";
import { pageInput, slicePage } from "./page-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

const folderNoInput = z.string().min(1).max(64);

export const listFoldersTool: ToolEntry = {
  name: "list_folders",
  operations: ["listFolders"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "list_folders",
      {
        title: "List folders",
        description:
          "The folders directly inside a folder (the root folders by default), with how many files and bytes each holds at any depth. One page, with `total` and `has_more`.",
        inputSchema: {
          parent_folder_no: folderNoInput
            .optional()
            .describe("The folder whose subfolders to list; omit for the root."),
          name: z.string().min(1).max(255).optional().describe("Only folders whose name contains this."),
          sort: z.enum(FOLDER_SORTS).optional(),
          ...pageInput,
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ parent_folder_no, name, sort, page, limit }) =>
        toolResult(async () => {
          // The API answers a level whole; the page is cut here so a model never gets it all.
          const { folders } = await client.folders.list({ parent_folder_no, name, sort });
          const { items, page: summary } = slicePage(folders, page, limit);
          return { folders: items, ...summary };
        }),
    );
  },
};

export const createFolderTool: ToolEntry = {
  name: "create_folder",
  operations: ["createFolder"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "create_folder",
      {
        title: "Create a folder",
        description:
          "Create a folder at the root or inside another. Uploads with a `folder` path create their folders by themselves; this is for empty ones.",
        inputSchema: {
          name: z.string().min(1).max(255).describe("The folder's name (one path segment)."),
          parent_folder_no: folderNoInput
            .optional()
            .describe("Create it inside this folder; omit for the root."),
        },
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      ({ name, parent_folder_no }) => toolResult(() => client.folders.create({ name, parent_folder_no })),
    );
  },
};
