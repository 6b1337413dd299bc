import type { EmbeddedMetadataMode } from "@trove/schema";
import { describe, expect, it } from "vitest";
import { embeddedMetadataMode, workspaceEmbeddedMetadata } from "./embedded-metadata-rule.js";
import type { UploadCredential } from "./upload-credential.js";

type Row = [
  UploadCredential,
  EmbeddedMetadataMode | null,
  EmbeddedMetadataMode | undefined,
  EmbeddedMetadataMode | undefined,
  EmbeddedMetadataMode,
];

// credential, workspace, policy, requested -> mode
const TABLE: Row[] = [
  // The default.
  ["public", null, undefined, undefined, "strip"],
  ["private", null, undefined, undefined, "keep"],
  // The workspace replaces the default for both.
  ["public", "keep", undefined, undefined, "keep"],
  ["public", "strip-location", undefined, undefined, "strip-location"],
  ["private", "strip", undefined, undefined, "strip"],
  ["private", "strip-location", undefined, undefined, "strip-location"],
  // A public credential's policy binds, over the workspace too.
  ["public", null, "keep", undefined, "keep"],
  ["public", "strip", "strip-location", undefined, "strip-location"],
  ["public", "keep", "strip", undefined, "strip"],
  // A public upload may only ask for stricter.
  ["public", null, undefined, "keep", "strip"],
  ["public", null, undefined, "strip-location", "strip"],
  ["public", "keep", undefined, "strip-location", "strip-location"],
  ["public", "keep", undefined, "strip", "strip"],
  ["public", null, "strip-location", "keep", "strip-location"],
  ["public", null, "strip-location", "strip", "strip"],
  ["public", null, "keep", "keep", "keep"],
  // A private key's upload decides.
  ["private", "strip", undefined, "keep", "keep"],
  ["private", null, undefined, "strip", "strip"],
  ["private", null, undefined, "strip-location", "strip-location"],
];

describe("embeddedMetadataMode", () => {
  it.each(TABLE)(
    "%s key, workspace %s, policy %s, upload %s -> %s",
    (credential, workspace, policy, requested, mode) => {
      expect(embeddedMetadataMode({ credential, workspace, policy, requested })).toBe(mode);
    },
  );
});

describe("workspaceEmbeddedMetadata", () => {
  it("reads the stored column: unset is null, an unknown value the strictest", () => {
    expect(workspaceEmbeddedMetadata(null)).toBeNull();
    expect(workspaceEmbeddedMetadata("strip-location")).toBe("strip-location");
    expect(workspaceEmbeddedMetadata("keep")).toBe("keep");
    expect(workspaceEmbeddedMetadata("bogus")).toBe("strip");
  });
});
