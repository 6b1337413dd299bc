import { MAX_SIGNED_URL_EXPIRES_IN } from "@trove/schema";
import * as z from "zod";
import { fileNoInput } from "./file-no-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

export const signedUrlTool: ToolEntry = {
  name: "signed_url",
  operations: ["createSignedUrl"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "signed_url",
      {
        title: "Make a signed URL",
        description:
          "A delivery URL that works for a limited time, for a private file (whose plain URL answers 404) or any other. Signed by the server; optionally transformed.",
        inputSchema: {
          file_no: fileNoInput,
          transform: z
            .string()
            .min(1)
            .max(2048)
            .optional()
            .describe("A transformation, e.g. `w_800,f_webp` (grammar: resource trove://transform-grammar)."),
          expires_in: z
            .number()
            .int()
            .min(1)
            .max(MAX_SIGNED_URL_EXPIRES_IN)
            .optional()
            .describe(`Seconds the URL works, 1..${MAX_SIGNED_URL_EXPIRES_IN} (7 days); default 3600.`),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ file_no, transform, expires_in }) =>
        toolResult(() => client.files.signedUrl(file_no, { transform, expiresIn: expires_in })),
    );
  },
};
