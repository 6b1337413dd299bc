import { type FormEvent, useRef, useState } from "react";
import { type ConsoleSession, SessionError, signIn } from "../api/session-api.js";

/**
 * One password field. The secret is read from the field at submit, sent once in the body, and
 * the field is cleared: it is never kept in state, storage or the URL (the form posts by script,
 * so the browser never puts it in a query string either).
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const field = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = field.current;
    if (!input) return;
    const secret = input.value;
    input.value = "";
    if (secret.trim() === "") {
      setError("Enter a private key or the admin token");
      input.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(secret));
    } catch (caught) {
      setError(describe(caught));
      input.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Sign in</h1>
      <form method="post" action="#" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor="secret">Private key or admin token</label>
        <input
          id="secret"
          ref={field}
          name="secret"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          aria-describedby={error ? "sign-in-error" : undefined}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        {error ? (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        ) : null}
      </form>
      <p className="hint">
        The key stays in this form: the server answers with a session cookie the page cannot read.
      </p>
    </main>
  );
}

function describe(error: unknown): string {
  if (error instanceof SessionError && error.retryAfterSeconds !== undefined) {
    return `${error.message} (try again in ${error.retryAfterSeconds} s)`;
  }
  return error instanceof Error ? error.message : String(error);
}
