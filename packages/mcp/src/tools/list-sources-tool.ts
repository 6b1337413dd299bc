import { SOURCE_TYPES } from "@trove/schema";
import * as z from "zod";
import { pageInput } from "./page-input.js";
import { type ToolEntry, workspaceClient } from "./tool-entry.js";
import { toolResult } from "./tool-result.js";

export const listSourcesTool: ToolEntry = {
  name: "list_sources",
  operations: ["listSources"],
  register(server, context) {
    const client = workspaceClient(context);
    server.registerTool(
      "list_sources",
      {
        title: "List sources",
        description:
          "The workspace's sources: external origins (S3, Azure, Google Cloud buckets, web servers) whose objects Trove serves and transforms under `{assets}/{workspace_no}-{source name}/…`. Names and types only, no configuration. One page, with `total` and `has_more`.",
        inputSchema: {
          type: z.enum(SOURCE_TYPES).optional().describe("Only sources of this type."),
          search: z.string().min(1).max(255).optional().describe("Only sources whose name contains this."),
          ...pageInput,
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ type, search, page, limit }) =>
        toolResult(async () => {
          const { sources, meta } = await client.sources.list({ type, search, page, limit });
          // Configurations stay out: even masked, bucket names and endpoints are not the model's business.
          return {
            sources: sources.map(({ id, name, type, created_at }) => ({ id, name, type, created_at })),
            page: meta.page,
            limit: meta.limit,
            total: meta.total,
            has_more: meta.hasMore,
          };
        }),
    );
  },
};
