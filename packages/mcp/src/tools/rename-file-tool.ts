import * as z from "zod";
import { fileNoInput } from "./file-no-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

// Destructive in the MCP sense: the file's path, and so every delivery URL already handed out,
// changes. It never overwrites another file (the server answers a conflict instead).
export const renameFileTool: ToolEntry = {
  name: "rename_file",
  operations: ["renameFile"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "rename_file",
      {
        title: "Rename a file",
        description:
          "Give a file a new base name; its extension and folder stay. Its path and delivery URLs change, so links to the old URL stop working. A name already taken in the folder is refused (CONFLICT), never overwritten.",
        inputSchema: {
          file_no: fileNoInput,
          name: z.string().min(1).max(255).describe("The new name, without extension, e.g. `hero-banner`."),
        },
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      ({ file_no, name }) => toolResult(() => client.files.rename(file_no, name)),
    );
  },
};
