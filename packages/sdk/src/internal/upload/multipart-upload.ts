import type { MultipartSession, MultipartStartBodyInput } from "@trove/schema/zod-free";
import type { ClientContext } from "../client/client-context.js";
import {
  InvalidResponseError,
  PermissionDeniedError,
  SessionExpiredError,
  type TroveError,
  ValidationError,
} from "../errors.js";
import { abortErrorFrom, linkSignals } from "../request/index.js";
import { abandonMultipart, completeMultipart, startMultipart } from "./multipart-api.js";
import type { Part, PartFeed } from "./part.js";
import { partFeed } from "./part-feed.js";
import type { ProgressTracker } from "./progress-tracker.js";
import type { SessionResume } from "./resumable-store.js";
import { sendPart } from "./send-part.js";
import type { SessionJournal } from "./session-journal.js";
import type { SessionStore } from "./session-store.js";
import type { ResolvedInput } from "./upload-input.js";
import { type UploadResult, uploadResultFrom } from "./upload-result.js";
import type { UploadControl } from "./upload-task.js";

/**
 * Storage may answer an expired presigned URL with 400 or 403; such an answer within this much
 * of `expires_at` (client and server clocks differ) counts as expiry.
 */
const EXPIRY_SKEW_MS = 60_000;

export interface MultipartJob {
  input: ResolvedInput;
  size: number;
  startBody: MultipartStartBodyInput;
  /** At least 1: runUpload checks it. */
  concurrency: number;
  store: SessionStore | undefined;
  /** The store's resume code (resumable-store.ts); without it nothing is stored. */
  resume: SessionResume | undefined;
  /** Undefined when the input has no identity: then nothing is stored. */
  key: string | undefined;
  progress: ProgressTracker;
}

/**
 * start (or resume a stored session) → PUT every part not yet confirmed, `concurrency` at a time,
 * each retried on its own → complete.
 *
 * Expiry: a session whose URLs have expired cannot be continued (its parts are tied to the
 * signed URLs), so the upload fails with SessionExpiredError and the stored session is
 * discarded; calling upload() again starts a new session. A stored session found (nearly)
 * expired before anything was sent is replaced silently.
 *
 * Abort: a session kept in a SessionStore stays (uploading the same input again resumes it);
 * one that nothing can resume is abandoned on the server (DELETE, best effort), which removes its
 * staged parts and gives an upload token back the file the session held.
 */
export async function multipartUpload(
  ctx: ClientContext,
  job: MultipartJob,
  control: UploadControl,
): Promise<UploadResult> {
  await control.wait();
  const journal = await (job.resume?.open ?? unstoredJournal)(job, () =>
    startMultipart(ctx, job.startBody, control.signal),
  );
  const { session } = journal;
  const count = Math.ceil(job.size / session.part_size);
  if (session.parts.length !== count) {
    throw new InvalidResponseError(
      `multipart start returned ${session.parts.length} part URLs for ${count} parts`,
      { code: "INVALID_RESPONSE", body: session },
    );
  }
  try {
    return await sendAndComplete(ctx, job, control, journal);
  } catch (error) {
    if (control.signal.aborted && !journal.resumable) await abandonMultipart(ctx, session.session_id);
    throw error;
  }
}

/** Without a store's resume code nothing is recorded, so nothing resumes and an abort abandons the session. */
async function unstoredJournal(
  _job: unknown,
  start: () => Promise<MultipartSession>,
): Promise<SessionJournal> {
  return {
    session: await start(),
    completed: new Set(),
    resumable: false,
    markCompleted: async () => {},
    discard: async () => {},
  };
}

async function sendAndComplete(
  ctx: ClientContext,
  job: MultipartJob,
  control: UploadControl,
  journal: SessionJournal,
): Promise<UploadResult> {
  const { session } = journal;
  const partLength = (index: number) => Math.min(session.part_size, job.size - index * session.part_size);
  job.progress.confirmAll([...journal.completed].map((index) => [index, partLength(index)] as const));

  // Aborted when a part fails for good. The feed also stops on abort, so that a worker waiting on
  // a slow stream does not hold the upload open.
  const stopped = new AbortController();
  const feedStop = linkSignals(control.signal, stopped.signal);
  const feed = partFeed(
    job.input,
    session.part_size,
    job.size,
    journal.completed,
    feedStop.signal,
    ctx.streams,
  );
  try {
    await sendParts(ctx, job, control, feed, journal, stopped);
  } catch (error) {
    if (error instanceof SessionExpiredError) await journal.discard();
    throw error;
  } finally {
    feedStop.dispose();
    await feed.close();
  }
  await control.wait();
  const result = uploadResultFrom(await completeMultipart(ctx, session.session_id, control.signal));
  await journal.discard();
  return result;
}

/**
 * `concurrency` workers take parts from the feed. Pausing aborts the parts in flight; each goes
 * back on `interrupted` and is sent first on resume, so no more than `concurrency` part buffers
 * ever exist. The first real failure stops the siblings, and the promise settles only when every
 * worker has stopped: nothing is left running.
 */
async function sendParts(
  ctx: ClientContext,
  job: MultipartJob,
  control: UploadControl,
  feed: PartFeed,
  journal: SessionJournal,
  stopped: AbortController,
): Promise<void> {
  const { session } = journal;
  const interrupted: Part[] = [];
  let failure: unknown;
  // A worker held by a pause must not keep a failed upload from settling until resume().
  const whenStopped = new Promise<void>((resolve) =>
    stopped.signal.addEventListener("abort", () => resolve(), { once: true }),
  );

  const worker = async () => {
    for (;;) {
      await Promise.race([control.wait(), whenStopped]);
      if (stopped.signal.aborted) return;
      const part = interrupted.shift() ?? (await feed.next());
      if (!part) return;
      if (Date.now() >= session.expires_at * 1000) throw expired(session.expires_at);
      const linked = linkSignals(control.runSignal, stopped.signal);
      try {
        await sendPart(ctx, session.parts[part.index] as string, part.body, {
          signal: linked.signal,
          onSent: job.progress.listened ? (bytes) => job.progress.sent(part.index, bytes) : undefined,
        });
        job.progress.confirm(part.index, part.size);
        await journal.markCompleted(part.index);
      } catch (error) {
        if (control.signal.aborted || stopped.signal.aborted) throw error;
        if (linked.signal.aborted) {
          // Paused: this part is sent again, from its first byte, after resume().
          interrupted.push(part);
          continue;
        }
        throw expiryOf(error, session.expires_at);
      } finally {
        linked.dispose();
      }
    }
  };

  await Promise.all(
    Array.from({ length: job.concurrency }, () =>
      worker().catch((error: unknown) => {
        // The first failure wins; after an abort, whatever a worker hit (a cancelled stream read
        // "ends early") is reported as the abort.
        failure ??= control.signal.aborted ? abortErrorFrom(control.signal) : error;
        stopped.abort();
      }),
    ),
  );
  if (failure !== undefined) throw failure;
}

function expiryOf(error: unknown, expiresAt: number): unknown {
  const nearExpiry = Date.now() >= expiresAt * 1000 - EXPIRY_SKEW_MS;
  const refused = error instanceof ValidationError || error instanceof PermissionDeniedError;
  return refused && nearExpiry ? expired(expiresAt, error) : error;
}

function expired(expiresAt: number, cause?: TroveError): SessionExpiredError {
  return new SessionExpiredError(
    `The multipart session expired at ${new Date(expiresAt * 1000).toISOString()}; call upload() again to start a new one`,
    { code: "SESSION_EXPIRED", status: cause?.status, requestId: cause?.requestId, body: cause?.body, cause },
  );
}
