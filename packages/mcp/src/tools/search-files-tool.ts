import * as z from "zod";
import { fileListOutput } from "./file-list-output.js";
import { pageInput } from "./page-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

export const searchFilesTool: ToolEntry = {
  name: "search_files",
  operations: ["listFiles"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "search_files",
      {
        title: "Search files",
        description:
          "Find files by a part of their name (case-insensitive), by tags (files carrying all of them, exact), or by folder path (everything below it). Filters combine. One page, with `total` and `has_more`.",
        inputSchema: {
          name: z.string().min(1).max(255).optional().describe("Part of the file name, e.g. `hero`."),
          tags: z.array(z.string().min(1).max(100)).max(20).optional().describe("Tags the files must carry."),
          path: z
            .string()
            .min(1)
            .max(1024)
            .optional()
            .describe(
              "A folder path (files at any depth below it, e.g. `products`) or one file's exact path.",
            ),
          folder_no: z.string().max(64).optional().describe("Only files directly in this folder."),
          ...pageInput,
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ name, tags, path, folder_no, page, limit }) =>
        toolResult(async () => {
          if (name === undefined && tags === undefined && path === undefined) {
            throw Object.assign(new Error("give at least one of name, tags or path (or use list_files)"), {
              code: "INVALID_ARGUMENT",
            });
          }
          return fileListOutput(await client.files.list({ name, tags, path, folder_no, page, limit }));
        }),
    );
  },
};
