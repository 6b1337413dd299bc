import { ENDPOINTS } from "@trove/schema";
import { expect, it } from "vitest";
import { UPLOAD_PATHS } from "./upload-paths.js";

it("the upload engine's paths match the ENDPOINTS registry", () => {
  const pathOf = (operationId: string) =>
    ENDPOINTS.find((endpoint) => endpoint.operationId === operationId)?.path;
  expect(UPLOAD_PATHS).toEqual({
    direct: pathOf("uploadFile"),
    remote: pathOf("uploadFromUrl"),
    start: pathOf("startMultipartUpload"),
    complete: pathOf("completeMultipartUpload"),
    session: pathOf("abortMultipartUpload")?.replace(/\/:sessionId$/, ""),
  });
});
