import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

const SECRET_PREFIX = "whsec_";
/** Fixed label of the one-off derivation: never a workspace secret's own input. */
const ONE_OFF_LABEL = "trove.one-off-webhook.v1:";

/** Headers of one signed delivery (Standard Webhooks). */
export interface WebhookSignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** A new workspace signing secret: `whsec_` + base64 of 32 random bytes (what `standardwebhooks` reads). */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/**
 * The secret that signs deliveries to a one-off `webhook_url` of an upload made with a public key
 * or an upload token (a private key's one-off URL is signed with the workspace secret):
 * `whsec_` + base64(HMAC-SHA256(key: the workspace secret's decoded bytes, "trove.one-off-webhook.v1:" + url)),
 * `url` as Trove normalises it (`new URL(webhook_url).href`).
 *
 * Why not the workspace secret: a public key or an upload token may name any URL, and would
 * then receive messages that the workspace's own endpoints accept as Trove's (issue #30). A
 * message signed under this key never verifies with the workspace secret, nor for another URL;
 * the workspace owner, who holds the secret, derives the key for a URL of its own to verify.
 */
export function oneOffWebhookSecret(workspaceSecret: string, url: string): string {
  const encoded = workspaceSecret.startsWith(SECRET_PREFIX)
    ? workspaceSecret.slice(SECRET_PREFIX.length)
    : workspaceSecret;
  const key = Buffer.from(encoded, "base64");
  const derived = createHmac("sha256", key).update(`${ONE_OFF_LABEL}${url}`, "utf8").digest("base64");
  return `${SECRET_PREFIX}${derived}`;
}

/**
 * Signs `body` the Standard Webhooks way: `webhook-signature` is `v1,<base64 HMAC-SHA256 of
 * "<id>.<unix seconds>.<body>">` keyed with the secret's decoded bytes, one such signature per
 * secret, space-separated (during a rotation's grace: the new secret's, then the old one's).
 * `body` must be the exact bytes sent. Receivers verify with any Standard Webhooks library
 * (`new Webhook(secret).verify(body, headers)`), which accepts the header when any signature
 * matches and rejects timestamps more than 5 minutes away, so sign at send time.
 */
export function signWebhook(input: {
  secrets: readonly string[];
  webhookId: string;
  body: string;
  timestamp?: Date;
}): WebhookSignatureHeaders {
  if (input.secrets.length === 0) throw new TypeError("signWebhook needs at least one secret");
  const timestamp = input.timestamp ?? new Date();
  const signatures = input.secrets.map((secret) =>
    new Webhook(secret).sign(input.webhookId, timestamp, input.body),
  );
  return {
    "webhook-id": input.webhookId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
