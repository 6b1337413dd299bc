// The session endpoints (/console/api/session) by plain fetch: the sign-in page loads this and not
// the SDK, which comes with the library after sign-in (session-client.ts).

/** The console session's `data` (GET/POST /console/api/session), as the server sends it. */
export interface ConsoleSession {
  kind: "workspace" | "admin";
  workspace_no?: string;
  workspace_name?: string;
  csrf_token: string;
  idle_timeout_seconds: number;
}

/** A refused sign-in or session call: the server's message, shown to the user as text. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode: string | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = "SessionError";
  }
}

const SESSION_URL = "/console/api/session";

/** Signs in with a private key or the admin token. The secret goes in the body only, once. */
export function signIn(secret: string): Promise<ConsoleSession> {
  return sessionCall("POST", undefined, JSON.stringify({ secret }));
}

/** The current session, or null when there is none (401). */
export async function readSession(): Promise<ConsoleSession | null> {
  try {
    return await sessionCall("GET");
  } catch (error) {
    if (error instanceof SessionError && error.status === 401) return null;
    throw error;
  }
}

/** Ends the session on the server (the row is deleted, the cookie cleared). */
export async function signOut(csrfToken: string): Promise<void> {
  await sessionCall("DELETE", csrfToken);
}

async function sessionCall(method: string, csrfToken?: string, body?: string): Promise<ConsoleSession> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (csrfToken !== undefined) headers["x-csrf-token"] = csrfToken;
  const response = await fetch(SESSION_URL, {
    method,
    headers,
    body,
    credentials: "same-origin",
    cache: "no-store",
  });
  const envelope = (await response.json().catch(() => null)) as Envelope | null;
  if (!response.ok || envelope?.success !== true) {
    throw new SessionError(
      envelope?.message ?? `The server answered ${response.status}`,
      response.status,
      envelope?.errorCode,
      envelope?.retryAfterSeconds,
    );
  }
  return envelope.data as ConsoleSession;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  message?: string;
  errorCode?: string;
  retryAfterSeconds?: number;
}
