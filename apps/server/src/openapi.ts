/**
 * The OpenAPI document served at GET /openapi.json.
 *
 * TEMPORARY INDIRECTION: `openApiDocument` is being added to @trove/schema (generated from the zod
 * schemas). Until that export is settled this module looks it up loosely, so the server builds and
 * serves a minimal placeholder document if it is missing. Once @trove/schema exports it for good,
 * replace the body with `export { openApiDocument } from "@trove/schema";`.
 */
import * as schema from "@trove/schema";

const placeholder = {
  openapi: "3.1.0",
  info: { title: "Trove API", version: "1.0.0" },
  servers: [{ url: "{base_url}" }, { url: "{app_url}" }],
  paths: {},
};

function resolveDocument(): object {
  const exports = schema as unknown as Record<string, unknown>;
  const candidate = exports.openApiDocument ?? exports.createOpenApiDocument;
  if (typeof candidate === "function") return (candidate as () => object)();
  if (candidate && typeof candidate === "object") return candidate;
  return placeholder;
}

export const openApiDocument: object = resolveDocument();
