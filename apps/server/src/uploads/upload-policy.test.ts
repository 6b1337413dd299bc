import { describe, expect, it } from "vitest";
import { HttpError } from "../errors/http-error.js";
import {
  applyFixedFields,
  checkMultipartAllowed,
  checkPolicySize,
  checkPolicyType,
  checkRemoteAllowed,
  effectiveMaxBytes,
  mimeTypeMatches,
  normalizePolicy,
  resolvePolicyFolder,
} from "./upload-policy.js";

function refusal(run: () => unknown): { status: number; errorCode: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, errorCode: error.errorCode };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("resolvePolicyFolder", () => {
  const exact = { folder: "avatars", folder_match: "exact" as const };
  const prefix = { folder: "avatars", folder_match: "prefix" as const };

  it("puts an upload naming no folder in the policy's folder", () => {
    expect(resolvePolicyFolder(exact, undefined)).toBe("avatars");
    expect(resolvePolicyFolder(prefix, "")).toBe("avatars");
  });

  it("admits the exact folder, cleaned of slashes", () => {
    expect(resolvePolicyFolder(exact, "/avatars/")).toBe("avatars");
    expect(refusal(() => resolvePolicyFolder(exact, "avatars/u1"))).toEqual({
      status: 403,
      errorCode: "FOLDER_NOT_ALLOWED",
    });
  });

  it("admits folders below a prefix by whole segments only", () => {
    expect(resolvePolicyFolder(prefix, "avatars/u1/big")).toBe("avatars/u1/big");
    for (const folder of ["avatars2", "avatarsx/u1", "other", "avatar"]) {
      expect(refusal(() => resolvePolicyFolder(prefix, folder)).errorCode).toBe("FOLDER_NOT_ALLOWED");
    }
  });

  it("refuses dot segments by the upload name rules before comparing", () => {
    expect(refusal(() => resolvePolicyFolder(prefix, "avatars/../x")).status).toBe(400);
    expect(refusal(() => resolvePolicyFolder(prefix, "avatars/./x")).status).toBe(400);
  });

  it("leaves the folder alone without a policy folder", () => {
    expect(resolvePolicyFolder(undefined, "a//b")).toBe("a/b");
    expect(resolvePolicyFolder({ max_file_size: 5 }, "x")).toBe("x");
  });
});

describe("normalizePolicy", () => {
  it("cleans the folder and writes out folder_match", () => {
    expect(normalizePolicy({ folder: "/avatars/u1/" })).toEqual({
      folder: "avatars/u1",
      folder_match: "exact",
    });
    expect(normalizePolicy({ max_file_size: 3 })).toEqual({ max_file_size: 3 });
  });

  it("refuses names uploads refuse", () => {
    expect(refusal(() => normalizePolicy({ folder: "a/../b" })).status).toBe(400);
    expect(refusal(() => normalizePolicy({ folder: "evil\u202Egnp" })).status).toBe(400);
  });
});

describe("size", () => {
  it("refuses one byte over max_file_size with 413 FILE_TOO_LARGE", () => {
    expect(() => checkPolicySize({ max_file_size: 10 }, 10)).not.toThrow();
    expect(refusal(() => checkPolicySize({ max_file_size: 10 }, 11))).toEqual({
      status: 413,
      errorCode: "FILE_TOO_LARGE",
    });
    expect(() => checkPolicySize(undefined, 1e12)).not.toThrow();
  });

  it("streams with the smaller of the server's and the policy's caps", () => {
    expect(effectiveMaxBytes(100, { max_file_size: 10 })).toBe(10);
    expect(effectiveMaxBytes(100, { max_file_size: 1000 })).toBe(100);
    expect(effectiveMaxBytes(100, undefined)).toBe(100);
  });
});

describe("type", () => {
  it("matches exact types and whole top-level types", () => {
    expect(mimeTypeMatches("image/*", "image/png")).toBe(true);
    expect(mimeTypeMatches("image/*", "imagex/png")).toBe(false);
    expect(mimeTypeMatches("video/mp4", "video/mp4; codecs=avc1")).toBe(true);
    expect(mimeTypeMatches("video/mp4", "video/mp4x")).toBe(false);
  });

  it("refuses a sniffed type outside allowed_types with 415 TYPE_NOT_ALLOWED", () => {
    expect(refusal(() => checkPolicyType({ allowed_types: ["video/mp4"] }, "image/png"))).toEqual({
      status: 415,
      errorCode: "TYPE_NOT_ALLOWED",
    });
    expect(() => checkPolicyType({ allowed_types: ["image/*", "video/mp4"] }, "image/png")).not.toThrow();
    expect(() => checkPolicyType({}, "application/pdf")).not.toThrow();
  });
});

describe("remote and multipart", () => {
  it("forbid only when false", () => {
    expect(refusal(() => checkRemoteAllowed({ allow_remote: false }))).toEqual({
      status: 403,
      errorCode: "REMOTE_NOT_ALLOWED",
    });
    expect(refusal(() => checkMultipartAllowed({ allow_multipart: false }))).toEqual({
      status: 403,
      errorCode: "MULTIPART_NOT_ALLOWED",
    });
    expect(() => checkRemoteAllowed({})).not.toThrow();
    expect(() => checkMultipartAllowed(undefined)).not.toThrow();
  });
});

describe("applyFixedFields", () => {
  it("replaces the request's tags, metadata and custom_id, never merges", () => {
    const fixed = applyFixedFields(
      { tags: ["avatar"], metadata: { owner: "u1" }, custom_id: "u1-avatar" },
      {
        tags: ["mine", "avatar"],
        metadata: { owner: "attacker", extra: 1 },
        customId: "x",
        fileName: "a.png",
      },
    );
    expect(fixed).toEqual({
      tags: ["avatar"],
      metadata: { owner: "u1" },
      customId: "u1-avatar",
      fileName: "a.png",
    });
  });

  it("keeps the request's fields the policy does not fix", () => {
    expect(applyFixedFields({ tags: [] }, { tags: ["a"], customId: "c" })).toEqual({
      tags: [],
      customId: "c",
    });
    expect(applyFixedFields(undefined, { tags: ["a"] })).toEqual({ tags: ["a"] });
  });
});
