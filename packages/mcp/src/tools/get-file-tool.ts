import { fileNoInput } from "./file-no-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

export const getFileTool: ToolEntry = {
  name: "get_file",
  operations: ["getFile"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "get_file",
      {
        title: "Get a file",
        description:
          "Everything the workspace knows of one file: name, path, folder, size, format, dimensions, tags, metadata, whether it is private, its delivery url and thumbnail.",
        inputSchema: { file_no: fileNoInput },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ file_no }) => toolResult(() => client.files.get(file_no)),
    );
  },
};
