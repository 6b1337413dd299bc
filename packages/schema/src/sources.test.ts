import { describe, expect, it } from "vitest";
import {
  createSourceBodySchema,
  isMaskedSecret,
  listSourcesQuerySchema,
  listSourcesResponseSchema,
  MASKED_SECRET,
  SOURCE_TYPES,
  sourceConfigurationSchemas,
  sourceIdParamsSchema,
  sourceNameSchema,
  sourceResponseSchema,
  sourceSchema,
  updateSourceBodySchema,
} from "./sources.js";

/** A valid configuration of each type, as a caller sends it. */
const CONFIGURATIONS = {
  s3: {
    access_key: "AKIAEXAMPLE",
    secret_key: "wJalrXUtnFEMI/K7MDENG",
    region: "eu-west-1",
    bucket: "media",
  },
  azure: {
    connection_string: "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=abc==",
    container_name: "media",
  },
  google_cloud: { service_account_json: '{"type":"service_account"}', bucket_name: "acme-media" },
  image_source: {
    base_url: "https://images.example.com",
    canonical_header: "X-Canonical",
    forward_header: true,
  },
} as const;

/** The same configurations as a response shows them: secrets masked. */
const MASKED_CONFIGURATIONS = {
  s3: { access_key: MASKED_SECRET, secret_key: MASKED_SECRET, region: "eu-west-1", bucket: "media" },
  azure: { connection_string: "************", container_name: "media" },
  google_cloud: { service_account_json: MASKED_SECRET, bucket_name: "acme-media" },
  image_source: CONFIGURATIONS.image_source,
} as const;

function sourceOf<T extends keyof typeof MASKED_CONFIGURATIONS>(type: T) {
  return {
    id: "1f2e3d4c-5b6a-4789-8a9b-0c1d2e3f4a5b",
    name: `${type}-origin`,
    type,
    configuration: MASKED_CONFIGURATIONS[type],
    is_active: true,
    created_at: "2024-05-01T10:00:00.000Z",
    updated_at: null,
  };
}

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
  return result.error?.issues.map((issue) => issue.path) ?? [];
}

describe("source name", () => {
  it("accepts 1..255 letters, digits, underscore and hyphen", () => {
    for (const name of ["a", "my-origin_01", "X".repeat(255)]) {
      expect(sourceNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it("rejects empty, too long and other characters", () => {
    for (const name of ["", "X".repeat(256), "my origin", "origin.1", "ümlaut", "a/b"]) {
      expect(sourceNameSchema.safeParse(name).success, name).toBe(false);
    }
  });
});

describe("create source body (endpoint 14)", () => {
  it.each(SOURCE_TYPES)("accepts a valid %s source", (type) => {
    const body = { name: "origin", type, configuration: CONFIGURATIONS[type] };
    expect(createSourceBodySchema.parse(body)).toEqual(body);
  });

  it("s3 needs region and bucket; the keys are optional", () => {
    expect(
      createSourceBodySchema.safeParse({
        name: "o",
        type: "s3",
        configuration: { region: "eu-west-1", bucket: "b" },
      }).success,
    ).toBe(true);
  });

  const missingRequired = [
    ["s3", "region"],
    ["s3", "bucket"],
    ["azure", "connection_string"],
    ["azure", "container_name"],
    ["google_cloud", "service_account_json"],
    ["google_cloud", "bucket_name"],
    ["image_source", "base_url"],
  ] as const;

  it.each(missingRequired)("%s without %s fails with an issue under configuration", (type, field) => {
    const configuration: Record<string, unknown> = { ...CONFIGURATIONS[type] };
    delete configuration[field];
    const result = createSourceBodySchema.safeParse({ name: "origin", type, configuration });
    expect(result.success).toBe(false);
    expect(issuePaths(result)).toContainEqual(["configuration", field]);
    for (const path of issuePaths(result)) expect(path[0]).toBe("configuration");
  });

  it("rejects a configuration shaped for another type", () => {
    const result = createSourceBodySchema.safeParse({
      name: "o",
      type: "azure",
      configuration: CONFIGURATIONS.s3,
    });
    expect(result.success).toBe(false);
    for (const path of issuePaths(result)) expect(path[0]).toBe("configuration");
  });

  it("rejects a wrong type inside the configuration", () => {
    const configuration = { ...CONFIGURATIONS.image_source, forward_header: "yes" };
    const result = createSourceBodySchema.safeParse({ name: "o", type: "image_source", configuration });
    expect(issuePaths(result)).toEqual([["configuration", "forward_header"]]);
  });

  it("image_source base_url must be http(s) and must not end with a slash", () => {
    const withBase = (base_url: string) =>
      createSourceBodySchema.safeParse({ name: "o", type: "image_source", configuration: { base_url } });
    expect(withBase("https://images.example.com/cdn").success).toBe(true);
    expect(withBase("http://localhost:8080").success).toBe(true);
    for (const base of [
      "https://images.example.com/",
      "https://images.example.com/cdn/",
      "ftp://images.example.com",
    ]) {
      const result = withBase(base);
      expect(result.success, base).toBe(false);
      expect(issuePaths(result)).toEqual([["configuration", "base_url"]]);
    }
  });

  it("rejects an unknown type, a bad name, and a missing configuration", () => {
    expect(createSourceBodySchema.safeParse({ name: "o", type: "dropbox", configuration: {} }).success).toBe(
      false,
    );
    expect(
      createSourceBodySchema.safeParse({ name: "bad name", type: "s3", configuration: CONFIGURATIONS.s3 })
        .success,
    ).toBe(false);
    expect(createSourceBodySchema.safeParse({ name: "o", type: "s3" }).success).toBe(false);
  });
});

describe("update source body (endpoint 17)", () => {
  it("both fields are optional; configuration may be partial (it is merged)", () => {
    expect(updateSourceBodySchema.safeParse({}).success).toBe(true);
    expect(updateSourceBodySchema.safeParse({ configuration: { region: "us-east-1" } }).success).toBe(true);
    expect(
      updateSourceBodySchema.safeParse({ name: "renamed", configuration: { secret_key: "****" } }).success,
    ).toBe(true);
  });

  it("the name follows the creation rules", () => {
    expect(updateSourceBodySchema.safeParse({ name: "" }).success).toBe(false);
    expect(updateSourceBodySchema.safeParse({ name: "with space" }).success).toBe(false);
    expect(updateSourceBodySchema.safeParse({ configuration: "region=x" }).success).toBe(false);
  });

  it("is_active takes a boolean only", () => {
    expect(updateSourceBodySchema.parse({ is_active: false })).toEqual({ is_active: false });
    for (const value of ["false", 0, null, "yes"]) {
      expect(updateSourceBodySchema.safeParse({ is_active: value }).success, String(value)).toBe(false);
    }
  });

  it("a merged configuration is checked against the type", () => {
    const merged = { ...CONFIGURATIONS.s3, region: "" };
    expect(sourceConfigurationSchemas.s3.safeParse(merged).success).toBe(false);
  });
});

describe("source responses", () => {
  it.each(SOURCE_TYPES)("accepts a %s source with masked secrets", (type) => {
    const response = { success: true, data: sourceOf(type) };
    expect(sourceResponseSchema.parse(response)).toEqual(response);
  });

  it("rejects a response that carries a plaintext secret", () => {
    const leaked = { ...sourceOf("s3"), configuration: { ...CONFIGURATIONS.s3 } };
    expect(sourceSchema.safeParse(leaked).success).toBe(false);
    const azure = { ...sourceOf("azure"), configuration: { ...CONFIGURATIONS.azure } };
    expect(sourceSchema.safeParse(azure).success).toBe(false);
  });

  it("accepts an updated_at timestamp", () => {
    expect(
      sourceSchema.safeParse({ ...sourceOf("s3"), updated_at: "2024-05-02T10:00:00.000Z" }).success,
    ).toBe(true);
  });

  it("rejects a configuration that does not match the type, and an unknown type", () => {
    expect(sourceSchema.safeParse({ ...sourceOf("s3"), type: "azure" }).success).toBe(false);
    expect(sourceSchema.safeParse({ ...sourceOf("s3"), type: "ftp" }).success).toBe(false);
    expect(sourceSchema.safeParse({ ...sourceOf("s3"), id: "not-a-uuid" }).success).toBe(false);
    expect(sourceSchema.safeParse({ ...sourceOf("s3"), is_active: "true" }).success).toBe(false);
  });

  it("accepts the list response", () => {
    const list = {
      sources: SOURCE_TYPES.map((type) => sourceOf(type)),
      meta: { page: 1, limit: 10, total: 4, hasMore: false },
    };
    expect(listSourcesResponseSchema.parse(list)).toEqual(list);
    expect(
      listSourcesResponseSchema.safeParse({ ...list, meta: { page: 1, limit: 10, total: 4 } }).success,
    ).toBe(false);
  });

  it("isMaskedSecret recognises runs of asterisks only", () => {
    expect(isMaskedSecret(MASKED_SECRET)).toBe(true);
    expect(isMaskedSecret("*")).toBe(true);
    expect(isMaskedSecret("")).toBe(false);
    expect(isMaskedSecret("ab**")).toBe(false);
    expect(isMaskedSecret(8)).toBe(false);
  });
});

describe("list sources query (endpoint 15)", () => {
  it("defaults page to 1 and limit to 10", () => {
    expect(listSourcesQuerySchema.parse({})).toEqual({ page: 1, limit: 10 });
  });

  it("accepts search and type filters", () => {
    expect(
      listSourcesQuerySchema.parse({ page: "2", limit: "100", search: "img", type: "image_source" }),
    ).toEqual({
      page: 2,
      limit: 100,
      search: "img",
      type: "image_source",
    });
  });

  it("rejects out-of-range page and limit, and an unknown type", () => {
    for (const query of [{ page: "0" }, { limit: "0" }, { limit: "101" }, { type: "ftp" }]) {
      expect(listSourcesQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
  });

  it("sourceId is a UUID", () => {
    expect(sourceIdParamsSchema.safeParse({ sourceId: "1f2e3d4c-5b6a-4789-8a9b-0c1d2e3f4a5b" }).success).toBe(
      true,
    );
    expect(sourceIdParamsSchema.safeParse({ sourceId: "42" }).success).toBe(false);
  });
});
