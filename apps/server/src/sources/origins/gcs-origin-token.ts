/**
 * Access tokens for a service account: the OAuth 2.0 JWT bearer grant (RFC 7523). The reader signs
 * a one-hour assertion with the key (RS256), trades it at the token endpoint for an access token,
 * and keeps that token until a minute before it expires, so a reader that lives across requests
 * fetches one token an hour, not one per read. Concurrent reads share one fetch.
 *
 * The token asks for `devstorage.read_only` whatever the account may do: a leaked token of Trove's
 * can read, never write or delete.
 */
import { sign } from "node:crypto";
import type { Readable } from "node:stream";
import { type Dispatcher, request } from "undici";
import type { ServiceAccount } from "./gcs-origin-credentials.js";
import { discard, exchangeFailure, untilAborted } from "./gcs-origin-network.js";
import { originError } from "./origin-error.js";

export const READ_ONLY_SCOPE = "https://www.googleapis.com/auth/devstorage.read_only";
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ASSERTION_LIFETIME_S = 3600;
/** A token this close to expiring is replaced rather than sent. */
const REFRESH_MARGIN_MS = 60_000;
/** A token answer is a few hundred bytes; more is not a token endpoint. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

export interface TokenSourceOptions {
  account: ServiceAccount;
  tokenUrl: URL;
  dispatcher: Dispatcher;
  sourceName: string;
  /** Bound of one token fetch, ms: it is shared, so no single read's deadline governs it. */
  timeoutMs: number;
  now?: () => number;
}

export interface TokenSource {
  /** A current access token; rejects with an OriginError (`timeout` when `signal` aborts first). */
  token(signal: AbortSignal): Promise<string>;
  /** Forgets the cached token (the API refused it). */
  invalidate(): void;
}

export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const now = options.now ?? Date.now;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const refresh = (): Promise<string> => {
    pending ??= fetchToken(options, now()).then(
      ({ token, expiresInS }) => {
        cached = { token, expiresAt: now() + expiresInS * 1000 };
        pending = undefined;
        return token;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };

  return {
    async token(signal) {
      if (cached && cached.expiresAt - now() > REFRESH_MARGIN_MS) return cached.token;
      try {
        return await untilAborted(refresh(), signal);
      } catch (error) {
        throw exchangeFailure(error, signal, options.sourceName, "token endpoint");
      }
    },
    invalidate() {
      cached = undefined;
    },
  };
}

async function fetchToken(
  options: TokenSourceOptions,
  nowMs: number,
): Promise<{ token: string; expiresInS: number }> {
  const { sourceName } = options;
  const signal = AbortSignal.timeout(options.timeoutMs);
  const body = new URLSearchParams({
    grant_type: JWT_BEARER_GRANT,
    assertion: signedAssertion(options.account, options.tokenUrl, nowMs),
  }).toString();
  let response: Dispatcher.ResponseData;
  try {
    response = await untilAborted(
      request(options.tokenUrl, {
        method: "POST",
        dispatcher: options.dispatcher,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
        signal,
      }),
      signal,
      (late) => discard(late.body),
    );
  } catch (error) {
    throw exchangeFailure(error, signal, sourceName, "token endpoint");
  }
  const { statusCode } = response;
  if (statusCode === 400 || statusCode === 401 || statusCode === 403) {
    // Google answers 400 invalid_grant for a key it does not know or a bad signature.
    discard(response.body);
    throw originError("denied", sourceName, `token endpoint refused the service account (${statusCode})`);
  }
  if (statusCode !== 200) {
    discard(response.body);
    throw originError("unavailable", sourceName, `token endpoint answered ${statusCode}`);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(await readSmall(response.body, MAX_TOKEN_ANSWER_BYTES));
  } catch (error) {
    if (signal.aborted) throw exchangeFailure(error, signal, sourceName, "token endpoint");
    throw originError("unavailable", sourceName, "token endpoint answered with something other than a token");
  }
  const { access_token: token, expires_in: expiresIn } = (answer ?? {}) as Record<string, unknown>;
  if (typeof token !== "string" || token === "" || !/^[\x21-\x7e]+$/.test(token)) {
    throw originError("unavailable", sourceName, "token endpoint answered without a usable token");
  }
  // Without a lifetime, assume the grant's usual hour; a silly one is clamped to [1 min, 1 h].
  const expiresInS =
    typeof expiresIn === "number" && Number.isFinite(expiresIn)
      ? Math.min(Math.max(expiresIn, 60), ASSERTION_LIFETIME_S)
      : ASSERTION_LIFETIME_S;
  return { token, expiresInS };
}

/** The RS256-signed JWT the grant trades: issued by the account, for the token endpoint. */
function signedAssertion(account: ServiceAccount, tokenUrl: URL, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode({
    iss: account.clientEmail,
    scope: READ_ONLY_SCOPE,
    aud: tokenUrl.href,
    iat,
    exp: iat + ASSERTION_LIFETIME_S,
  })}`;
  const signature = sign("RSA-SHA256", Buffer.from(unsigned), account.privateKey).toString("base64url");
  return `${unsigned}.${signature}`;
}

/** Reads a body of at most `limit` bytes as text; a longer one is an error. */
async function readSmall(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      discard(body);
      throw new Error("answer too long");
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
