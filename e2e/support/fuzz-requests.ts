/**
 * Property-based request generation for the reliability suite: every endpoint of `ENDPOINTS`
 * (plus Trove's part gateway at a real signed URL), with a valid-ish body built from the
 * endpoint's schema fields and then mutated (wrong types, missing and extra fields, huge strings,
 * unicode, NUL bytes, path traversal, extreme numbers, malformed JSON and multipart, wrong content
 * types, bad path params, inputs that make backtracking regexes super-linear), sent with each kind
 * of key.
 *
 * Network safety: every string that parses as a URL with a host other than loopback is replaced
 * by a loopback URL before sending, so a generated `remote_url`, `webhook_url` or `base_url` can
 * never make the server reach (or even resolve) an outside address.
 */
import {
  ENDPOINTS,
  type EndpointDefinition,
  type ErrorGroup,
  errorEnvelopeSchema,
  errorGroupOf,
  errorShapeFor,
} from "@trove/schema";
import fc from "fast-check";

/** What this file needs of a zod schema (e2e does not depend on zod itself). */
interface Schema {
  safeParse(value: unknown): { success: boolean };
}

export type KeyKind = "private" | "public" | "private2" | "none" | "bad" | "bearer-private" | "bearer-public";
export const KEY_KINDS: readonly KeyKind[] = [
  "private",
  "public",
  "private2",
  "none",
  "bad",
  "bearer-private",
  "bearer-public",
];

/** Real identifiers created before fuzzing, so some requests reach existing resources. */
export interface FuzzContext {
  baseUrl: string;
  keys: { public: string; private: string; private2: string };
  fileNos: string[];
  folderNos: string[];
  sourceIds: string[];
  sessionIds: string[];
  /** A real signed part URL of an open multipart session. */
  partUrl: string;
  /** The byte size of that part (the whole of a one-part session). */
  partSize: number;
}

export interface FuzzRequest {
  label: string;
  method: string;
  /** Path and query, relative to the base URL. */
  url: string;
  key: KeyKind;
  contentType?: string;
  body?: string | Uint8Array;
  /** Whether the path still matches the endpoint's route (so its variant shape applies). */
  routeIntact: boolean;
  variant?: "folder-create" | "rename";
}

/**
 * Whether the path reaches the server as generated: fetch resolves `.` and `..` segments (also
 * `%2e`) before sending, so `/parts/./1` arrives as `/parts/1`, which no longer matches the route
 * and is answered by the unknown-route handler's envelope, not the group's.
 */
function sentAsGenerated(url: string): boolean {
  const path = url.split("?", 1)[0] ?? "";
  return !path.split("/").some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

// ---------------------------------------------------------------------------------------------
// Values

const HUGE = "A".repeat(100 * 1024);
// ReDoS probes: what makes a backtracking regex super-linear. Runs of comments and doctypes for
// the text upload sniffer (as file contents), long runs of separators, dots and blanks for the
// parsers of names, folders and transformations. A regression here shows as a request that
// times out while the server's event loop is stuck.
const REDOS_TEXTS = [
  `${"<!---->".repeat(3000)}x`,
  "<!DOCTYPE[".repeat(3000),
  `<!--${"--><!DOCTYPE[O".repeat(1500)}`,
];
const REDOS_STRINGS = [
  ",".repeat(10_000),
  "_".repeat(10_000),
  `w-1${",".repeat(5000)}h-1`,
  `tr:${"w-1,".repeat(2500)}x`,
  `${"tr:w-1/".repeat(1500)}x`,
  `a${"/".repeat(10_000)}b`,
  `a${". \t".repeat(3000)}b`,
  ...REDOS_TEXTS,
];
const NASTY_STRINGS = [
  "",
  " ",
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "/etc/passwd",
  "a\u0000b",
  "\u0000",
  "💥🧨\u202e\u200bñ日本語",
  "\ud800",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  ["$", "{jndi:ldap://127.0.0.1/a}"].join(""),
  "{{7*7}}",
  "%s%s%n",
  "null",
  "true",
  "-1",
  "0",
  "1e309",
  "NaN",
  "__proto__",
  "constructor",
  "********",
  "w-100,h-100",
  "w-99999999,h-99999999",
  "tr:w-0",
  HUGE,
  ...REDOS_STRINGS,
];
const NASTY_NUMBERS = [
  -1,
  0,
  1,
  -0,
  2 ** 31,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  1.5,
  Number.MIN_VALUE,
];

const stringValue = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
);
const numberValue = fc.oneof(fc.constantFrom(...NASTY_NUMBERS), fc.integer(), fc.double());
const leafValue: fc.Arbitrary<unknown> = fc.oneof(
  stringValue,
  numberValue,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leafValue },
  { weight: 1, arbitrary: fc.array(leafValue, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), leafValue, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.constant({ __proto__: { polluted: true }, constructor: { prototype: {} } }) },
);

// ---------------------------------------------------------------------------------------------
// Seeds: a valid body per endpoint (the fuzzer mutates from these)

function seedBody(operationId: string, ctx: FuzzContext): Record<string, unknown> {
  const loopback = `${ctx.baseUrl}/healthz`;
  switch (operationId) {
    case "uploadFile":
      return {
        file_name: "fuzz.txt",
        folder: "fuzz",
        tags: "a,b",
        metadata: '{"k":"v"}',
        random_prefix: "true",
      };
    case "uploadFromUrl":
      return { remote_url: loopback, file_name: "remote.txt", tags: ["a"], webhook_url: loopback };
    case "startMultipartUpload":
      return {
        file_name: "big.bin",
        size: 1024,
        format: "application/octet-stream",
        tags: ["t"],
        ttl_seconds: 60,
      };
    case "completeMultipartUpload":
      return { session_id: ctx.sessionIds[0] ?? "nope" };
    case "renameFile":
      return { name: "renamed" };
    case "createFolder":
      return { name: "fuzz-folder" };
    case "renameFolder":
      return { name: "renamed-folder" };
    case "createSource":
      return { name: "fuzz-src", type: "s3", configuration: { region: "eu", bucket: "b", secret_key: "s" } };
    case "updateSource":
      return { name: "fuzz-src-2", configuration: { bucket: "c" } };
    default:
      return {};
  }
}

/** Field names of an endpoint's body, from its zod object schema when it has a shape. */
function fieldNames(schema: unknown, seed: Record<string, unknown>): string[] {
  const names = new Set(Object.keys(seed));
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (shape && typeof shape === "object") for (const key of Object.keys(shape)) names.add(key);
  const def = (schema as { def?: { in?: { shape?: Record<string, unknown> } } } | undefined)?.def;
  if (def?.in?.shape) for (const key of Object.keys(def.in.shape)) names.add(key);
  return [...names];
}

type Mutation =
  | { kind: "none" }
  | { kind: "drop"; field: string }
  | { kind: "set"; field: string; value: unknown }
  | { kind: "extra"; field: string; value: unknown };

function mutationArb(fields: string[]): fc.Arbitrary<Mutation> {
  const field = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant("x");
  // A fresh valid name now and then, so creates and renames also succeed (not only 409 after the first).
  const freshName = fc
    .stringMatching(/^[A-Za-z0-9_-]{1,24}$/)
    .map((value): Mutation => ({ kind: "set", field: "name", value }));
  return fc.oneof(
    fc.constant<Mutation>({ kind: "none" }),
    ...(fields.includes("name") ? [freshName, freshName] : []),
    field.map((f): Mutation => ({ kind: "drop", field: f })),
    fc.record({ field, value: anyValue }).map((m): Mutation => ({ kind: "set", ...m })),
    fc
      .record({ field: fc.oneof(fc.string({ maxLength: 10 }), fc.constant("__proto__")), value: anyValue })
      .map((m): Mutation => ({ kind: "extra", ...m })),
  );
}

function applyMutations(seed: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const body: Record<string, unknown> = { ...seed };
  for (const m of mutations) {
    if (m.kind === "drop") delete body[m.field];
    else if (m.kind === "set" || m.kind === "extra")
      Object.defineProperty(body, m.field, {
        value: m.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Network safety

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Replaces any URL-looking string whose host is not loopback (deeply), so nothing leaves the machine. */
export function keepOnLoopback<T>(value: T, loopbackUrl: string): T {
  if (typeof value === "string") {
    const text = value.trim();
    if (/^[a-z][a-z0-9+.-]*:/i.test(text) || /\/\/|\\\\|www\./i.test(text)) {
      try {
        const parsed = new URL(text);
        if (parsed.hostname === "" || LOOPBACK_HOSTS.has(parsed.hostname)) return value;
      } catch {
        // unparsable but URL-like: replaced below, to be safe
      }
      return loopbackUrl as T;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => keepOnLoopback(v, loopbackUrl)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, {
        value: keepOnLoopback(v, loopbackUrl),
        enumerable: true,
        writable: true,
      });
    }
    return out as T;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Path params

/** Percent-encodes any string, lone surrogates included (encoded as U+FFFD, as UTF-8 does). */
function pct(value: string): string {
  return Array.from(Buffer.from(value, "utf8"), (b) =>
    /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).padStart(2, "0").toUpperCase()}`,
  ).join("");
}

function paramArb(name: string, ctx: FuzzContext): fc.Arbitrary<{ value: string; intact: boolean }> {
  const real =
    name === "fileNo"
      ? ctx.fileNos
      : name === "folderNo"
        ? ctx.folderNos
        : name === "sourceId"
          ? ctx.sourceIds
          : name === "sessionId"
            ? ctx.sessionIds
            : ["1"];
  const encoded = fc
    .oneof(
      fc.constantFrom(...(real.length > 0 ? real : ["1"])),
      fc.constantFrom(
        "0",
        "-1",
        "99999999999999999999999",
        "9223372036854775807",
        "1.5",
        "1e3",
        "0x10",
        "00000000-0000-0000-0000-000000000000",
        "not-a-uuid",
        "%00",
        "null",
        "undefined",
      ),
      stringValue.filter((s) => s.length > 0 && s.length < 2000),
    )
    .map((v) => ({ value: pct(v), intact: true }));
  const raw = fc
    .constantFrom("../../etc/passwd", "..%2f..%2fetc%2fpasswd", "%2e%2e", "a/b", "%ff%fe", "%", "%zz")
    .map((v) => ({ value: v, intact: false }));
  return fc.oneof({ weight: 5, arbitrary: encoded }, { weight: 1, arbitrary: raw });
}

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => values[name] ?? "x");
}

// ---------------------------------------------------------------------------------------------
// Bodies

const MALFORMED_JSON = [
  "{",
  '{"a":}',
  "[",
  "null",
  "[]",
  '"str"',
  "123",
  '{"a":1,}',
  "{'a':1}",
  "\u0000",
  '{"__proto__":{"x":1}}',
  `{"a":"${"\\u0000".repeat(10)}"}`,
  "[".repeat(5000),
  `{"a":${"[".repeat(2000)}${"]".repeat(2000)}}`,
];

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/octet-stream",
  "application/xml",
  "image/png",
  ";;;",
  "application/json; boundary=x",
];

function multipartBody(
  fields: Record<string, unknown>,
  file: { name: string; type: string; bytes: string } | undefined,
  boundary: string,
): string {
  let out = "";
  for (const [name, value] of Object.entries(fields)) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    out += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`;
  }
  if (file) {
    out += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.bytes}\r\n`;
  }
  return `${out}--${boundary}--\r\n`;
}

const MALFORMED_MULTIPART = [
  (b: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\n\r\nunterminated`,
  (b: string) => `--${b}\r\n\r\n\r\n--${b}--`,
  (b: string) => `garbage before\r\n--${b}--\r\n`,
  (_b: string) => '--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--other--\r\n',
  (b: string) => `--${b}\r\nContent-Disposition: form-data; name="file"\r\n\r\nno filename\r\n--${b}--\r\n`,
  (b: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\n\r\nx\r\n--${b}--\r\n`,
  (b: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nx\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="b.txt"\r\n\r\ny\r\n--${b}--\r\n`,
  (b: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="${"n".repeat(100_000)}"\r\n\r\nv\r\n--${b}--\r\n`,
  (_b: string) => "",
];

interface BodyChoice {
  contentType?: string;
  body?: string | Uint8Array;
}

function jsonBodyArb(ep: EndpointDefinition, ctx: FuzzContext): fc.Arbitrary<BodyChoice> {
  const seed = seedBody(ep.operationId, ctx);
  const fields = fieldNames(ep.body, seed);
  const mutated = fc.array(mutationArb(fields), { maxLength: 3 }).map((ms) => ({
    contentType: "application/json",
    body: JSON.stringify(keepOnLoopback(applyMutations(seed, ms), `${ctx.baseUrl}/healthz`)),
  }));
  return fc.oneof(
    { weight: 8, arbitrary: mutated },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...MALFORMED_JSON)
        .map((body) => ({ contentType: "application/json", body })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          ct: fc.constantFrom(...CONTENT_TYPES, undefined),
          ms: fc.array(mutationArb(fields), { maxLength: 2 }),
        })
        .map(({ ct, ms }) => ({
          contentType: ct,
          body: JSON.stringify(keepOnLoopback(applyMutations(seed, ms), `${ctx.baseUrl}/healthz`)),
        })),
    },
    { weight: 1, arbitrary: fc.constant<BodyChoice>({}) },
  );
}

function multipartBodyArb(ep: EndpointDefinition, ctx: FuzzContext): fc.Arbitrary<BodyChoice> {
  const seed = seedBody(ep.operationId, ctx);
  const fields = fieldNames(ep.body, seed);
  const boundary = "----trovefuzz7d1a";
  const file = fc.oneof(
    fc.constant(undefined),
    fc.record({
      name: fc.oneof(
        fc.constantFrom(
          "a.txt",
          "../../etc/passwd",
          "x\u0000.png",
          "💥.jpg",
          "",
          "a".repeat(300),
          `a${".".repeat(5000)}b.txt`,
        ),
        stringValue.map((s) => s.replace(/["\r\n]/g, "_")),
      ),
      type: fc.constantFrom("text/plain", "image/png", "application/octet-stream", "", "x/y;;"),
      bytes: fc.oneof(
        fc.constantFrom("", "hello", "\u0089PNG\r\n\u001a\n\u0000\u0000", HUGE, ...REDOS_TEXTS),
        fc.string({ maxLength: 100 }),
      ),
    }),
  );
  const wellFormed = fc
    .record({ ms: fc.array(mutationArb(fields), { maxLength: 3 }), file })
    .map(({ ms, file: f }) => ({
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: multipartBody(keepOnLoopback(applyMutations(seed, ms), `${ctx.baseUrl}/healthz`), f, boundary),
    }));
  const malformed = fc
    .record({
      make: fc.constantFrom(...MALFORMED_MULTIPART),
      ct: fc.constantFrom(
        `multipart/form-data; boundary=${boundary}`,
        "multipart/form-data",
        'multipart/form-data; boundary=""',
        "multipart/mixed; boundary=x",
      ),
    })
    .map(({ make, ct }) => ({ contentType: ct, body: make(boundary) }));
  const wrongType = fc
    .record({
      ct: fc.constantFrom(...CONTENT_TYPES, undefined),
      body: fc.oneof(stringValue, fc.constant(JSON.stringify(seed))),
    })
    .map(({ ct, body }) => ({ contentType: ct, body }));
  return fc.oneof(
    { weight: 6, arbitrary: wellFormed },
    { weight: 2, arbitrary: malformed },
    { weight: 2, arbitrary: wrongType },
  );
}

function queryArb(ep: EndpointDefinition): fc.Arbitrary<string> {
  const names = fieldNames(ep.query, {});
  if (names.length === 0) return fc.oneof(fc.constant(""), fc.constant("?x=1&x=2"));
  const pair = fc.record({
    name: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...names) },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    ),
    value: fc.oneof(
      fc.constantFrom(
        "1",
        "0",
        "-1",
        "100",
        "101",
        "1000001",
        "1e3",
        "abc",
        "",
        "true",
        "name_asc",
        "created_at",
        "asc",
        "s3",
      ),
      stringValue,
      numberValue.map(String),
    ),
  });
  return fc.array(pair, { maxLength: 4 }).chain((pairs) =>
    fc.constantFrom("encoded", "raw").map((mode) => {
      if (pairs.length === 0) return "";
      const parts = pairs.map(({ name, value }) =>
        mode === "encoded"
          ? `${pct(name)}=${pct(value)}`
          : `${name.replace(/[#?&\s]/g, "")}=${value.slice(0, 200).replace(/[#\s]/g, "")}`,
      );
      return `?${parts.join("&")}`;
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Requests

function endpointRequestArb(ep: EndpointDefinition, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...ep.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? "");
  const params = fc.tuple(...paramNames.map((name) => paramArb(name, ctx)));
  const body =
    ep.bodyContentType === "multipart/form-data"
      ? multipartBodyArb(ep, ctx)
      : ep.body
        ? jsonBodyArb(ep, ctx)
        : fc.oneof(
            { weight: 4, arbitrary: fc.constant<BodyChoice>({}) },
            {
              weight: 1,
              arbitrary: fc
                .constantFrom(...MALFORMED_JSON)
                .map((b) => ({ contentType: "application/json", body: b })),
            },
          );
  return fc
    .record({ params, query: queryArb(ep), body, key: fc.constantFrom(...KEY_KINDS) })
    .map(({ params: ps, query, body: b, key }) => {
      const values: Record<string, string> = {};
      paramNames.forEach((name, i) => {
        values[name] = ps[i]?.value ?? "x";
      });
      const intact = ps.every((p) => p.intact);
      const variant =
        ep.operationId === "renameFile"
          ? "rename"
          : ep.operationId === "createFolder"
            ? "folder-create"
            : undefined;
      return {
        label: `${ep.number} ${ep.operationId}`,
        method: ep.method,
        url: `${fillPath(ep.path, values)}${query}`,
        key,
        contentType: b.contentType,
        body: b.body,
        routeIntact: intact,
        variant: variant as FuzzRequest["variant"],
      };
    });
}

/** The part gateway at a real signed URL, with its query, size and content type mutated. */
function gatewayRequestArb(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const real = new URL(ctx.partUrl);
  const query = fc.oneof(
    fc.constant(real.search),
    fc.constant(""),
    fc.constantFrom("expires", "signature").chain((name) =>
      fc
        .oneof(
          fc.constantFrom(
            "",
            "-1",
            "0",
            "99999999999999999999",
            "1e309",
            "abc",
            "%00",
            real.searchParams.get("signature") ?? "x",
          ),
          stringValue,
        )
        .map((value) => {
          const params = new URLSearchParams(real.search);
          params.set(name, value);
          return `?${params.toString()}`;
        }),
    ),
    fc.constant(`${real.search}&signature=dup`),
  );
  const path = fc.oneof(
    { weight: 4, arbitrary: fc.constant({ value: real.pathname, intact: true }) },
    {
      weight: 2,
      arbitrary: paramArb("partNumber", ctx).map((p) => ({
        value: real.pathname.replace(/\/[^/]+$/, `/${p.value}`),
        intact: p.intact,
      })),
    },
    {
      weight: 2,
      arbitrary: paramArb("sessionId", ctx).map((p) => ({
        value: real.pathname.replace(/\/[^/]+\/([^/]+)$/, `/${p.value}/$1`),
        intact: p.intact,
      })),
    },
  );
  const body = fc.oneof(
    fc.constant(new Uint8Array(ctx.partSize).fill(1)),
    fc.constant(new Uint8Array(ctx.partSize + 1)),
    fc.constant(new Uint8Array(0)),
    fc.integer({ min: 1, max: 2048 }).map((n) => new Uint8Array(n).fill(7)),
    fc.constant(new Uint8Array(100 * 1024)),
    fc.constant(undefined),
  );
  const contentType = fc.constantFrom(
    "application/octet-stream",
    "application/octet-stream; charset=binary",
    "APPLICATION/OCTET-STREAM",
    "application/json",
    "text/plain",
    "multipart/form-data",
    ";;;",
    undefined,
  );
  return fc
    .record({
      query,
      path,
      body,
      contentType,
      key: fc.constantFrom<KeyKind>("none", "none", "private", "public", "bad"),
    })
    .map(({ query: q, path: p, body: b, contentType: ct, key }) => ({
      label: "4 uploadPart (gateway)",
      method: "PUT",
      url: `${p.value}${q}`,
      key,
      contentType: ct,
      body: b,
      routeIntact: p.intact,
    }));
}

export function fuzzRequestArb(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const arbs = ENDPOINTS.filter((ep) => ep.key !== "none").map((ep) => endpointRequestArb(ep, ctx));
  return fc.oneof(...arbs, gatewayRequestArb(ctx));
}

function keyHeaders(key: KeyKind, ctx: FuzzContext): Record<string, string> {
  switch (key) {
    case "private":
      return { "x-api-key": ctx.keys.private };
    case "public":
      return { "x-api-key": ctx.keys.public };
    case "private2":
      return { "x-api-key": ctx.keys.private2 };
    case "bad":
      return { "x-api-key": "trove_sk_not-a-real-key" };
    case "bearer-private":
      return { authorization: `Bearer ${ctx.keys.private}` };
    case "bearer-public":
      return { authorization: `Bearer ${ctx.keys.public}` };
    case "none":
      return {};
  }
}

export async function sendFuzzRequest(ctx: FuzzContext, req: FuzzRequest): Promise<FuzzResponse> {
  const headers: Record<string, string> = keyHeaders(req.key, ctx);
  if (req.contentType !== undefined) headers["content-type"] = req.contentType;
  const response = await fetch(`${ctx.baseUrl}${req.url}`, {
    method: req.method,
    headers,
    // fetch refuses a body on GET/HEAD
    body: req.method === "GET" || req.method === "HEAD" ? undefined : (req.body as BodyInit | undefined),
    signal: AbortSignal.timeout(60_000),
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

/** The group whose envelope applies: the endpoint's route group, or the path's prefix group. */
function groupOf(req: FuzzRequest): ErrorGroup | undefined {
  const group = errorGroupOf(req.url);
  return group === "other" ? undefined : group;
}

export interface FuzzCheck {
  /** Broken properties: a failure. */
  problems: string[];
}

/** Checks a response against the properties. */
export function checkFuzzResponse(req: FuzzRequest, res: FuzzResponse): FuzzCheck {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (res.status === 204) return { problems };
  if (!/^application\/json\b/i.test(res.contentType))
    problems.push(`content type ${JSON.stringify(res.contentType)}`);
  if (res.status < 400) return { problems };
  const group = groupOf(req);
  const strict = Boolean(group && req.routeIntact && sentAsGenerated(req.url));
  const schema: Schema =
    group && strict ? errorShapeFor(group, res.status, req.variant) : errorEnvelopeSchema;
  problems.push(...errorBodyProblems(res.text, schema, `${group ?? "envelope"} ${res.status}`));
  return { problems };
}

/** An error body's properties: JSON, no stack trace, and the `shape` (named `shapeName`). */
export function errorBodyProblems(text: string, shape: Schema, shapeName: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`error body is not JSON: ${text.slice(0, 200)}`];
  }
  const problems: string[] = [];
  if (/at .+\.(ts|js):\d+/.test(text)) problems.push("stack trace in body");
  if (!shape.safeParse(body).success)
    problems.push(`body does not match ${shapeName} shape: ${text.slice(0, 300)}`);
  return problems;
}

/** A short, printable description of a request (for reports and shrunk counterexamples). */
export function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? "(no body)"
      : typeof req.body === "string"
        ? JSON.stringify(
            req.body.length > 300 ? `${req.body.slice(0, 300)}…(${req.body.length} chars)` : req.body,
          )
        : `<${req.body.length} bytes>`;
  return `${req.method} ${req.url.length > 300 ? `${req.url.slice(0, 300)}…` : req.url} key=${req.key} content-type=${req.contentType ?? "(none)"} body=${body}`;
}
