// The low-level multipart calls for a public key or upload tokens: createMultipartClient, not a
// property of createUploadClient's client (issue #35: that bundle stays small).
import { describe, expect, it } from "vitest";
import { fakeMultipart, patternBytes } from "../../../test/support/fake-multipart.js";
import { testOptions, useMswServer } from "../../../test/support/msw-server.js";
import { createMultipartClient } from "./create-multipart-client.js";
import { createUploadClient } from "./create-upload-client.js";

const server = useMswServer();
const PART = 1024;
const SIZE = 2 * PART + 5;

describe("createMultipartClient", () => {
  it("starts, sends each part without the key, and completes, with an upload token", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    const tokens: string[] = [];
    const multipart = createMultipartClient({
      ...testOptions(),
      apiKey: undefined,
      token: () => {
        tokens.push(`trove_ut_${tokens.length + 1}`);
        return tokens.at(-1) as string;
      },
    });
    const bytes = patternBytes(SIZE);
    const session = await multipart.start({ file_name: "big.bin", size: SIZE, format: "bin" });
    for (const [index, url] of session.parts.entries()) {
      await multipart.uploadPart(url, bytes.slice(index * PART, (index + 1) * PART));
    }
    const result = await multipart.complete(session.session_id);
    expect(result.file_no).toBe("2001");
    expect(storage.assembled()).toEqual(bytes);
    expect(storage.putHeaders.map((headers) => headers.get("x-api-key"))).toEqual([null, null, null]);
    // One token per call, as createUploadClient's multipart.start()/.complete() had.
    expect(tokens).toEqual(["trove_ut_1", "trove_ut_2"]);
  });

  it("is not a property of createUploadClient's client", () => {
    const client = createUploadClient({ ...testOptions(), apiKey: "trove_pk_test" });
    expect("multipart" in client).toBe(false);
  });
});
