import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** Headers of one signed delivery (Standard Webhooks). */
export interface WebhookSignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** A new workspace signing secret: `whsec_` + base64 of 32 random bytes (what `standardwebhooks` reads). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
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
