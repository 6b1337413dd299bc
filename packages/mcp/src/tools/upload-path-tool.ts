import { basename } from "node:path";
import * as z from "zod";
import { openUnderRoots } from "../roots-guard.js";
import type { ToolEntry } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";
import { storeOptionsInput, storeOptionsOf, uploadSummary } from "./upload-options-input.js";

/**
 * Uploads a local file: stdio only (over HTTP the "local" disk would be the MCP server's, not the
 * caller's), and only when TROVE_MCP_ROOTS names folders; roots-guard.ts decides what may be read.
 * The bytes come from the descriptor the guard checked, never from the path opened again.
 */
export const uploadPathTool: ToolEntry = {
  name: "upload_file",
  operations: ["uploadFile", "startMultipartUpload", "uploadPart", "completeMultipartUpload"],
  offered: ({ transport, roots }) => transport === "stdio" && roots.length > 0,
  register(server, { access, roots }) {
    server.registerTool(
      "upload_file",
      {
        title: "Upload a local file",
        description: `Upload a file from this computer to the workspace. Only regular files inside these folders may be read: ${roots.join(", ")}. Answers the stored file: file_no, path and url.`,
        inputSchema: {
          path: z
            .string()
            .min(1)
            .max(4096)
            .describe("Absolute path of the file, inside one of the allowed folders."),
          ...storeOptionsInput,
        },
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      ({ path, ...options }) =>
        toolResult(async () => {
          const file = await openUnderRoots(path, roots);
          try {
            const stream = file.handle.createReadStream({ autoClose: false });
            const result = await access.uploads.upload(stream, {
              ...storeOptionsOf(options),
              fileName: options.file_name ?? basename(file.path),
              size: file.size,
            });
            return uploadSummary(result);
          } finally {
            await file.handle.close();
          }
        }),
    );
  },
};
