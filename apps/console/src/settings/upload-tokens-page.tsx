import type { CreateUploadTokenBody, TroveClient, UploadTokenResponse } from "@trove/sdk";
import { type FormEvent, useState } from "react";
import { CopyButton } from "../details/copy-button.js";
import { formatBytes } from "../library/format-bytes.js";
import { PolicyFields, policyOf } from "./upload-policy-fields.js";

/**
 * Settings > Upload tokens: mints a token (POST /api/v1/uploads/tokens) with a policy and shows
 * it once. The token lives only in this component's state: leaving the page or reloading drops
 * it, as the warning says; the server keeps no way to read it back.
 */
export function UploadTokensPage({ client }: { client: TroveClient }) {
  const [minted, setMinted] = useState<UploadTokenResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    let body: CreateUploadTokenBody;
    try {
      body = policyOf(new FormData(event.currentTarget));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      return;
    }
    setBusy(true);
    try {
      setMinted(await client.uploadTokens.create(body));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page">
      <h1>Upload tokens</h1>
      <p className="muted">
        An upload token lets a browser upload without a key, within the policy below. Hand it to
        <code> createUploadClient({"{ token }"})</code>.
      </p>
      {minted ? (
        <section className="token-once" aria-labelledby="token-once-title">
          <h2 id="token-once-title">Your upload token</h2>
          <p role="alert" className="warning">
            Copy it now: it will not be shown again.
          </p>
          <p className="url">
            <output className="url__text" aria-label="Upload token">
              {minted.token}
            </output>{" "}
            <CopyButton text={minted.token} label="Copy the upload token" />
          </p>
          <dl className="token-once__facts">
            <div>
              <dt>Expires</dt>
              <dd>{new Date(minted.expires_at).toLocaleString("en")}</dd>
            </div>
            <div>
              <dt>Files</dt>
              <dd>{minted.max_files}</dd>
            </div>
            {minted.policy.max_file_size === undefined ? null : (
              <div>
                <dt>Largest file</dt>
                <dd>{formatBytes(minted.policy.max_file_size)}</dd>
              </div>
            )}
          </dl>
          <button type="button" onClick={() => setMinted(null)}>
            Done, hide it
          </button>
        </section>
      ) : null}
      <form className="form" onSubmit={(event) => void submit(event)} aria-labelledby="token-form-title">
        <h2 id="token-form-title">Mint an upload token</h2>
        <PolicyFields />
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Minting…" : "Mint token"}
          </button>
        </div>
      </form>
    </main>
  );
}
