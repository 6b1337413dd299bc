/**
 * A webhook receiver for Trove: verifies every delivery's signature with `standardwebhooks`, drops
 * repeats by `webhook-id`, logs the event, and answers 204. Anything that does not verify gets a
 * 400 and is not trusted.
 *
 *   TROVE_WEBHOOK_SECRET=whsec_... PORT=4000 npm start
 */
import { createServer, type IncomingMessage } from "node:http";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

const secret = process.env.TROVE_WEBHOOK_SECRET;
if (!secret?.startsWith("whsec_")) {
  console.error(
    "Set TROVE_WEBHOOK_SECRET to the secret `trove-server webhooks secret --workspace <no>` prints.",
  );
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);
const webhook = new Webhook(secret);

interface TroveEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Trove delivers at least once (a retry after a lost answer, say): a receiver that acts on events
 * should remember which `webhook-id`s it has handled. In memory here; a real one uses its database.
 */
const seen = new Set<string>();

/** The raw body: the signature covers the exact bytes, so never verify a re-serialised JSON. */
async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** One line per event: what happened to what. */
function describe(event: TroveEvent): string {
  const { data } = event;
  const what = data.path ?? data.name ?? data.id;
  const previous = typeof data.previous_path === "string" ? ` (was ${data.previous_path})` : "";
  return `${event.type.padEnd(15)} ${String(what)}${previous}`;
}

const server = createServer(async (req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const body = await rawBody(req);
  const headers = {
    "webhook-id": header(req, "webhook-id"),
    "webhook-timestamp": header(req, "webhook-timestamp"),
    "webhook-signature": header(req, "webhook-signature"),
  };
  let event: TroveEvent;
  try {
    // Checks the HMAC and that the timestamp is within 5 minutes (replays of old deliveries fail).
    event = webhook.verify(body, headers) as TroveEvent;
  } catch (error) {
    const reason = error instanceof WebhookVerificationError ? error.message : String(error);
    console.warn(`rejected ${headers["webhook-id"] || "(no id)"}: ${reason}`);
    res.writeHead(400).end();
    return;
  }
  if (seen.has(headers["webhook-id"])) {
    console.log(`repeat of ${headers["webhook-id"]}, already handled`);
  } else {
    seen.add(headers["webhook-id"]);
    console.log(`${event.timestamp}  ${describe(event)}  [${headers["webhook-id"]}]`);
  }
  // Any 2xx counts as delivered; anything else (or no answer within 10 s) is retried with backoff.
  res.writeHead(204).end();
});

server.listen(port, "127.0.0.1", () => {
  console.log(
    `Trove webhook receiver listening on http://127.0.0.1:${port}/ (verifying with the workspace secret)`,
  );
});
