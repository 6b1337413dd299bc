/**
 * Shared helpers of the sources tests (test/sources*.test.ts): valid configurations of every type
 * with distinctive secrets, an `inject` wrapper per endpoint, and a raw dump of the sources table
 * that works on PGlite and on PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { SOURCE_SECRET_FIELDS, SOURCE_TYPES, type SourceType } from "@trove/schema";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { TestApp } from "./support/index.js";

export const TYPES: readonly SourceType[] = SOURCE_TYPES;

export function randomTag(): string {
  return randomBytes(6).toString("hex");
}

export function uniqueName(prefix = "src"): string {
  return `${prefix}-${randomTag()}`;
}

/** A valid configuration of `type`; every secret is `SECRET-<type>-<field>-<tag>`. */
export function validConfiguration(type: SourceType, tag = randomTag()): Record<string, unknown> {
  const secret = (field: string) => `SECRET-${type}-${field}-${tag}`;
  switch (type) {
    case "s3":
      return {
        access_key: secret("access_key"),
        secret_key: secret("secret_key"),
        region: "eu-west-1",
        bucket: "media-bucket",
      };
    case "azure":
      return {
        connection_string: secret("connection_string"),
        container_name: "media",
      };
    case "google_cloud":
      return {
        service_account_json: JSON.stringify({
          type: "service_account",
          private_key: secret("service_account_json"),
        }),
        bucket_name: "gcs-bucket",
      };
    case "image_source":
      return {
        base_url: "https://images.example.com/origin",
        canonical_header: "X-Canonical",
        forward_header: true,
      };
  }
}

/** The plaintext secret values of a configuration (and, for JSON secrets, the embedded secret). */
export function secretsOf(configuration: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const field of SOURCE_SECRET_FIELDS) {
    const value = configuration[field];
    if (typeof value !== "string") continue;
    found.push(value);
    const embedded = /SECRET-[a-z_0-9]+-[a-z_]+-[0-9a-f]+/.exec(value);
    if (embedded && embedded[0] !== value) found.push(embedded[0]);
  }
  return found;
}

export interface SourcesApi {
  create(payload: unknown, key?: string): Promise<LightMyRequestResponse>;
  list(query?: Record<string, string | number>, key?: string): Promise<LightMyRequestResponse>;
  get(id: string, key?: string): Promise<LightMyRequestResponse>;
  patch(id: string, payload: unknown, key?: string): Promise<LightMyRequestResponse>;
  remove(id: string, key?: string): Promise<LightMyRequestResponse>;
  /** Every response seen so far (for the secret sweep). */
  responses: LightMyRequestResponse[];
}

export function sourcesApi(t: TestApp): SourcesApi {
  const responses: LightMyRequestResponse[] = [];
  const send = async (options: InjectOptions) => {
    const res = await t.app.inject(options);
    responses.push(res);
    return res;
  };
  const headers = (key?: string) => ({ "x-api-key": key ?? t.keys.private });
  const body = (payload: unknown) =>
    typeof payload === "string" ? payload : JSON.stringify(payload === undefined ? null : payload);
  return {
    responses,
    create: (payload, key) =>
      send({
        method: "POST",
        url: "/api/v1/sources",
        headers: { ...headers(key), "content-type": "application/json" },
        payload: body(payload),
      }),
    list: (query = {}, key) =>
      send({
        method: "GET",
        url: "/api/v1/sources",
        headers: headers(key),
        query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      }),
    get: (id, key) => send({ method: "GET", url: `/api/v1/sources/${id}`, headers: headers(key) }),
    patch: (id, payload, key) =>
      send({
        method: "PATCH",
        url: `/api/v1/sources/${id}`,
        headers: { ...headers(key), "content-type": "application/json" },
        payload: body(payload),
      }),
    remove: (id, key) => send({ method: "DELETE", url: `/api/v1/sources/${id}`, headers: headers(key) }),
  };
}

/** Rows of a raw SQL query, on PGlite or PostgreSQL. */
export async function rawRows<T extends Record<string, unknown>>(t: TestApp, sql: string): Promise<T[]> {
  const pglite = t.app.database.pglite;
  if (pglite) return (await pglite.query<T>(sql)).rows;
  return t.app.db.$queryRawUnsafe<T[]>(sql);
}

/** `SELECT configuration::text FROM sources` plus whole rows, as one string. */
export async function sourcesTableDump(t: TestApp): Promise<string> {
  const configurations = await rawRows<{ c: string }>(t, "SELECT configuration::text AS c FROM sources");
  const rows = await rawRows<{ r: string }>(t, "SELECT row_to_json(s)::text AS r FROM sources s");
  return [...configurations.map((row) => row.c), ...rows.map((row) => row.r)].join("\n");
}

export const VALIDATION_CONFIGURATION = {
  error: "Validation failed",
  message: "Configuration is invalid for the specified type",
};
export const NOT_FOUND = { error: "Source not found" };
export const DUPLICATE = { error: "Origin name already exists in this workspace" };
export const UNAUTHORIZED = {
  error: "Invalid API key.",
  message: "The API key is invalid, inactive, or deleted.",
};
export const FORBIDDEN = { error: "Forbidden", message: "This endpoint requires a private API key" };
