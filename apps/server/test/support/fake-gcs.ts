/**
 * A loopback stand-in for Google Cloud Storage: the part of the JSON API and of the OAuth 2.0 token
 * endpoint that a reader of objects uses. It checks what matters for security for real: the token
 * endpoint verifies the RS256 signature of the JWT assertion with the public key of the account it
 * names, and the API refuses requests without a token it issued.
 *
 *   const gcs = await startFakeGcs();
 *   gcs.putObject("photos/cat.jpg", bytes, { contentType: "image/jpeg" });
 *   createGcsOriginReader(
 *     { service_account_json: gcs.serviceAccountJson(), bucket_name: gcs.bucket },
 *     { sourceName, trustedRanges: parseTrustedRanges("127.0.0.0/8"), apiEndpoint: gcs.endpoint },
 *   );
 *   await gcs.stop();
 *
 * Served: `POST /token` (grant `urn:ietf:params:oauth:grant-type:jwt-bearer`),
 * `GET /storage/v1/b/{bucket}/o/{object}` (metadata; `?alt=media`: the bytes, honouring
 * If-None-Match and If-Modified-Since with 304). Unknown bucket or object: 404; no or unknown
 * token: 401. An object put with `stallAfter` sends that many bytes and stalls; `hang` makes it accept requests and never answer (deadline tests).
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface FakeGcsObject {
  bytes: Buffer;
  contentType: string;
  generation: number;
  /** JSON API style: an opaque string, sent quoted in the ETag header. */
  etag: string;
  updated: Date;
  /** Answer without Content-Length (chunked), as for a transcoded object. */
  chunked: boolean;
  /** Send this many bytes of the body, then stall with the connection open (body deadline tests). */
  stallAfter: number | undefined;
}

export interface FakeGcsOptions {
  bucket?: string;
  clientEmail?: string;
}

export interface FakeGcs {
  /** `http://127.0.0.1:<port>`: the reader's `apiEndpoint`. */
  endpoint: string;
  /** The token endpoint, as written in `serviceAccountJson()`'s `token_uri`. */
  tokenUrl: string;
  bucket: string;
  clientEmail: string;
  /** A service account key file's contents, with a private key this server accepts. */
  serviceAccountJson(overrides?: Record<string, unknown>): string;
  /** The same account with a key this server does not know (a wrong or rotated key). */
  wrongKeyServiceAccountJson(): string;
  putObject(
    path: string,
    bytes: Buffer | string,
    options?: { contentType?: string; chunked?: boolean; stallAfter?: number },
  ): FakeGcsObject;
  /** While true, requests are accepted and never answered; `onRequest` still fires. */
  hang: boolean;
  /** Called for every request (after its body arrived). */
  onRequest: ((req: IncomingMessage) => void) | undefined;
  /** Every request seen: method, URL and the headers a test may check. */
  requests: Array<{ method: string; url: string; ifNoneMatch?: string; ifModifiedSince?: string }>;
  /** Tokens issued so far. */
  tokensIssued: number;
  /** Cuts every open connection (ends hung requests). */
  disconnectAll(): void;
  stop(): Promise<void>;
}

const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const READ_SCOPES = new Set([
  "https://www.googleapis.com/auth/devstorage.read_only",
  "https://www.googleapis.com/auth/devstorage.full_control",
  "https://www.googleapis.com/auth/cloud-platform",
]);

function pemKeyPair(): { privatePem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), publicKey };
}

export async function startFakeGcs(options: FakeGcsOptions = {}): Promise<FakeGcs> {
  const bucket = options.bucket ?? "trove-test-bucket";
  const clientEmail = options.clientEmail ?? "trove-reader@trove-test.iam.gserviceaccount.com";
  const accepted = pemKeyPair();
  const objects = new Map<string, FakeGcsObject>();
  const tokens = new Map<string, number>();
  const sockets = new Set<Socket>();
  let generation = 1_700_000_000_000_000;
  const server = createServer();

  const keyFile = (privatePem: string, overrides: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: "service_account",
      project_id: "trove-test",
      private_key_id: randomBytes(20).toString("hex"),
      private_key: privatePem,
      client_email: clientEmail,
      client_id: "100000000000000000000",
      token_uri: fake.tokenUrl,
      ...overrides,
    });

  const fake: FakeGcs = {
    endpoint: "",
    tokenUrl: "",
    bucket,
    clientEmail,
    hang: false,
    onRequest: undefined,
    requests: [],
    tokensIssued: 0,
    serviceAccountJson: (overrides) => keyFile(accepted.privatePem, overrides),
    wrongKeyServiceAccountJson: () => keyFile(pemKeyPair().privatePem),
    putObject(path, bytes, objectOptions = {}) {
      generation += 1;
      const object: FakeGcsObject = {
        bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
        contentType: objectOptions.contentType ?? "application/octet-stream",
        generation,
        etag: createHash("sha256").update(String(generation)).digest("base64").slice(0, 16),
        // HTTP dates have whole seconds; keep the stored date comparable with them.
        updated: new Date(Math.floor(Date.now() / 1000) * 1000),
        chunked: objectOptions.chunked ?? false,
        stallAfter: objectOptions.stallAfter,
      };
      objects.set(path, object);
      return object;
    },
    disconnectAll() {
      for (const socket of sockets) socket.destroy();
    },
    async stop() {
      fake.disconnectAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };

  const verifyAssertion = (assertion: string): boolean => {
    const [header, claims, signature] = assertion.split(".");
    if (!header || !claims || signature === undefined) return false;
    const signed = verify(
      "RSA-SHA256",
      Buffer.from(`${header}.${claims}`),
      accepted.publicKey,
      Buffer.from(signature, "base64url"),
    );
    if (!signed) return false;
    const payload = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as Record<string, unknown>;
    const now = Date.now() / 1000;
    return (
      payload.iss === clientEmail &&
      payload.aud === fake.tokenUrl &&
      typeof payload.exp === "number" &&
      payload.exp > now &&
      typeof payload.scope === "string" &&
      payload.scope.split(" ").some((scope) => READ_SCOPES.has(scope))
    );
  };

  const handleToken = (res: ServerResponse, body: string) => {
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== JWT_BEARER_GRANT) {
      json(res, 400, { error: "unsupported_grant_type" });
      return;
    }
    let valid = false;
    try {
      valid = verifyAssertion(form.get("assertion") ?? "");
    } catch {
      valid = false;
    }
    if (!valid) {
      json(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
      return;
    }
    const token = `ya29.fake-${randomBytes(24).toString("base64url")}`;
    tokens.set(token, Date.now() + 3600_000);
    fake.tokensIssued += 1;
    json(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
  };

  const handleObject = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const match = /^\/storage\/v1\/b\/([^/]+)\/o\/([^/]+)$/.exec(url.pathname);
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    const expiry = bearer === undefined ? undefined : tokens.get(bearer);
    if (expiry === undefined || expiry < Date.now()) {
      json(res, 401, { error: { code: 401, message: "Invalid Credentials" } });
      return;
    }
    const object =
      match && decodeURIComponent(match[1]!) === bucket
        ? objects.get(decodeURIComponent(match[2]!))
        : undefined;
    if (!match || !object) {
      json(res, 404, { error: { code: 404, message: "No such object" } });
      return;
    }
    const quotedEtag = `"${object.etag}"`;
    if (url.searchParams.get("alt") !== "media") {
      json(res, 200, {
        kind: "storage#object",
        bucket,
        name: decodeURIComponent(match[2]!),
        generation: String(object.generation),
        size: String(object.bytes.length),
        contentType: object.contentType,
        etag: object.etag,
        updated: object.updated.toISOString(),
      });
      return;
    }
    const ifNoneMatch = req.headers["if-none-match"];
    const ifModifiedSince = req.headers["if-modified-since"];
    const unchanged =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === quotedEtag)
        : ifModifiedSince !== undefined && object.updated.getTime() <= Date.parse(ifModifiedSince);
    const headers: Record<string, string> = {
      etag: quotedEtag,
      "last-modified": object.updated.toUTCString(),
      "x-goog-generation": String(object.generation),
    };
    if (unchanged) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers["content-type"] = object.contentType;
    if (!object.chunked) headers["content-length"] = String(object.bytes.length);
    res.writeHead(200, headers);
    if (object.stallAfter === undefined) res.end(object.bytes);
    else res.write(object.bytes.subarray(0, object.stallAfter));
  };

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", fake.endpoint);
      fake.requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        ...(req.headers["if-none-match"] ? { ifNoneMatch: req.headers["if-none-match"] } : {}),
        ...(req.headers["if-modified-since"] ? { ifModifiedSince: req.headers["if-modified-since"] } : {}),
      });
      fake.onRequest?.(req);
      if (fake.hang) return;
      if (req.method === "POST" && url.pathname === "/token") {
        handleToken(res, Buffer.concat(chunks).toString("utf8"));
      } else if (req.method === "GET") {
        handleObject(req, res, url);
      } else {
        json(res, 405, { error: { code: 405, message: "Method not allowed" } });
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  fake.endpoint = `http://127.0.0.1:${port}`;
  fake.tokenUrl = `${fake.endpoint}/token`;
  return fake;
}
