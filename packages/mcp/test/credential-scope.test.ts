// Which tools a credential is offered, and which Origins the HTTP transport lets in: the rules
// alone, without a server.
import { describe, expect, it } from "vitest";
import { credentialKindOf, mayCall } from "../src/credential-scope.js";
import { originAllowed, parseOrigins } from "../src/origin-check.js";

describe("credential scope", () => {
  it("reads the kind from the prefix, and treats an unknown one as upload-only", () => {
    expect(credentialKindOf("trove_sk_abc")).toBe("private");
    expect(credentialKindOf("trove_pk_abc")).toBe("public");
    expect(credentialKindOf("trove_ut_abc")).toBe("upload-token");
    expect(credentialKindOf("sk_live_whatever")).toBe("public");
  });

  it("lets upload credentials call only the upload operations", () => {
    for (const kind of ["public", "upload-token"] as const) {
      expect(
        mayCall(kind, ["uploadFile", "startMultipartUpload", "uploadPart", "completeMultipartUpload"]),
      ).toBe(true);
      expect(mayCall(kind, ["uploadFromUrl"])).toBe(true);
      expect(mayCall(kind, ["deleteFile"])).toBe(false);
      expect(mayCall(kind, ["listFiles"])).toBe(false);
      expect(mayCall(kind, ["uploadFile", "getFile"])).toBe(false);
    }
    expect(mayCall("private", ["deleteFile", "listSources", "createSignedUrl"])).toBe(true);
  });
});

describe("Origin check", () => {
  const allowed = parseOrigins(" http://localhost:5173 , https://app.example.com ");

  it("lets requests without Origin (not from a page) and listed origins through", () => {
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed("http://localhost:5173", allowed)).toBe(true);
    expect(originAllowed("https://app.example.com", allowed)).toBe(true);
  });

  it("refuses other origins, opaque ones and look-alikes", () => {
    expect(originAllowed("http://evil.example", allowed)).toBe(false);
    expect(originAllowed("null", allowed)).toBe(false);
    expect(originAllowed("http://localhost:5174", allowed)).toBe(false);
    expect(originAllowed("https://app.example.com.evil.example", allowed)).toBe(false);
    expect(originAllowed("not a url", allowed)).toBe(false);
    expect(originAllowed("http://localhost:5173", [])).toBe(false);
  });
});
