import type { oas31 } from "zod-openapi";
import { createOpenApiDocument } from "./document.js";

export { COMPONENT_SCHEMAS, type ComponentSchemaName } from "./component-schemas.js";
export { createOpenApiDocument, OPENAPI_TITLE, OPENAPI_VERSION } from "./document.js";
export { errorStatusesOf } from "./error-responses.js";
export { toOpenApiPath } from "./paths.js";
export { createSourceRequestSchema, directUploadFormSchema } from "./request.js";
export { SECURITY_SCHEMES } from "./servers.js";

/** The document, built once at import (a few milliseconds). Bundlers drop it when unused. */
export const openApiDocument: oas31.OpenAPIObject = /* @__PURE__ */ createOpenApiDocument();
