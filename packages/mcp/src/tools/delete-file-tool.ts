import { fileNoInput } from "./file-no-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

export const deleteFileTool: ToolEntry = {
  name: "delete_file",
  operations: ["deleteFile"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "delete_file",
      {
        title: "Delete a file",
        description:
          "Delete a file permanently, from storage and database; its URLs stop working. There is no undo: confirm with the user first.",
        inputSchema: { file_no: fileNoInput },
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      ({ file_no }) => toolResult(() => client.files.delete(file_no)),
    );
  },
};
