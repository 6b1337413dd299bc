import type { FileDetailsResponse, ListFilesResponse, SourceResponse } from "@trove/schema";
import { expectTypeOf, it } from "vitest";
import type { EndpointResponse } from "./call-endpoint.js";

it("response types come from the registry's zod schemas", () => {
  expectTypeOf<EndpointResponse<"listFiles">>().toEqualTypeOf<ListFilesResponse>();
  expectTypeOf<EndpointResponse<"getFile">>().toEqualTypeOf<FileDetailsResponse>();
  expectTypeOf<EndpointResponse<"createSource">>().toEqualTypeOf<SourceResponse>();
  expectTypeOf<EndpointResponse<"deleteSource">>().toEqualTypeOf<undefined>();
});
