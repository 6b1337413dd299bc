import * as z from "zod";
import type { ToolEntry } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";
import { storeOptionsInput, storeOptionsOf, uploadSummary } from "./upload-options-input.js";

export const uploadFromUrlTool: ToolEntry = {
  name: "upload_from_url",
  operations: ["uploadFromUrl"],
  register(server, { access }) {
    server.registerTool(
      "upload_from_url",
      {
        title: "Upload from a URL",
        description:
          "Have Trove fetch a public http(s) URL and store it in the workspace. Answers the stored file: file_no (use it with the other tools), path and url.",
        inputSchema: {
          url: z.url({ protocol: /^https?$/ }).describe("Public http(s) URL of the file to store."),
          ...storeOptionsInput,
        },
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      },
      ({ url, ...options }) =>
        toolResult(async () =>
          uploadSummary(await access.uploads.uploadFromUrl(url, storeOptionsOf(options))),
        ),
    );
  },
};
