import { FILE_SORTS } from "@trove/schema";
import * as z from "zod";
import { fileListOutput } from "./file-list-output.js";
import { pageInput } from "./page-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

export const listFilesTool: ToolEntry = {
  name: "list_files",
  operations: ["listFiles"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "list_files",
      {
        title: "List files",
        description:
          "One page of the workspace's files (newest first by default), optionally in one folder. The answer has `total` and `has_more`: ask for the next page rather than a bigger one.",
        inputSchema: {
          folder_no: z
            .string()
            .max(64)
            .optional()
            .describe("Only files directly in this folder (its folder_no)."),
          sort: z.enum(FILE_SORTS).optional().describe("Order of the list."),
          ...pageInput,
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ folder_no, sort, page, limit }) =>
        toolResult(async () => fileListOutput(await client.files.list({ folder_no, sort, page, limit }))),
    );
  },
};
