import { safeParseTransform } from "@trove/schema";
import { type DeliveryTarget, deliveryUrl } from "@trove/sdk/node";
import * as z from "zod";
import { fileNoInput } from "./file-no-input.js";
import { type ToolContext, type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

class InvalidTransform extends Error {
  readonly code = "INVALID_TRANSFORM";
}
class InvalidArgument extends Error {
  readonly code = "INVALID_ARGUMENT";
}

const transformInput = z
  .string()
  .min(1)
  .max(2048)
  .describe(
    "The transformation, e.g. `w_800,f_webp` or `w_400,h_400,c_fill/e_grayscale`. Grammar: resource trove://transform-grammar.",
  );
const urlInput = z
  .url({ protocol: /^https?$/ })
  .describe("The file's delivery URL, as an upload, list_files or get_file answered it.");
const pathInput = z
  .string()
  .min(1)
  .max(1024)
  .optional()
  .describe(
    "The file's path, as answered with its url (e.g. `products/shoe.jpg`): tells where the URL's path starts.",
  );

/**
 * Builds `{assets}/{workspace_no}/{transform}/{path}`: no request and no secret when given the
 * file's URL, so an upload-only credential has it too; a private key may name the file by its
 * number instead (one get_file). The transformation is checked with the shared grammar first, so
 * a mistake comes back with the parser's own message instead of as a URL that answers 400.
 */
export const deliveryUrlTool: ToolEntry = {
  name: "delivery_url",
  operations: [],
  register(server, context) {
    const byNumber = context.access.workspace !== undefined;
    server.registerTool(
      "delivery_url",
      {
        title: "Build a delivery URL",
        description: `The URL that serves a file transformed on the fly (resized, cropped, converted, …), from the file's ${byNumber ? "delivery URL or its file_no" : "delivery URL"} and a transformation. Private files need signed_url instead.`,
        inputSchema: byNumber
          ? {
              url: urlInput.optional(),
              path: pathInput,
              file_no: fileNoInput.optional(),
              transform: transformInput,
            }
          : { url: urlInput, path: pathInput, transform: transformInput },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (input: { url?: string; path?: string; file_no?: string; transform: string }) =>
        toolResult(async () => {
          const parsed = safeParseTransform(input.transform);
          if (!parsed.success) throw new InvalidTransform(`Invalid transform: ${parsed.error.message}`);
          const target = await targetOf(input, context);
          return { url: deliveryUrl(target, input.transform, context.access.assetsUrl) };
        }),
    );
  },
};

async function targetOf(
  input: { url?: string; path?: string; file_no?: string },
  context: ToolContext,
): Promise<DeliveryTarget> {
  if ((input.url === undefined) === (input.file_no === undefined)) {
    throw new InvalidArgument("give exactly one of url or file_no");
  }
  if (input.url !== undefined) return { url: input.url, path: input.path ?? null };
  const file = await workspaceClient(context).files.get(input.file_no as string);
  if (file.is_private) {
    throw new InvalidArgument(`file ${file.file_no} is private: its plain URL answers 404; use signed_url`);
  }
  return file;
}
