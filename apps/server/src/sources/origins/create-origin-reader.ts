/**
 * The reader of a source, built from its stored row: the configuration is opened (secrets
 * decrypted) only here, when a delivery request needs the origin.
 *
 * Readers are kept for a short idle time per (source id, version), because some vendor clients
 * pay for their first request (a Google access token). A PATCH changes the version, so the next
 * request builds a new reader with the new configuration, on every instance (each reads the
 * source row per request); an idle reader, and the credentials it holds, is dropped after
 * READER_IDLE_MS.
 */
import type { SourceType } from "@trove/schema";
import type { Connector, LookupAll } from "../../network/guarded-connector.js";
import { openConfiguration } from "../configuration-secrets.js";
import { createImageSourceOriginReader } from "./image-source-origin.js";
import type { OriginContext, OriginReader } from "./origin-reader.js";

const READER_IDLE_MS = 5 * 60_000;
const MAX_READERS = 256;

export interface SourceRow {
  id: string;
  name: string;
  type: SourceType;
  configuration: unknown;
  /** `updated_at`, or `created_at` before any update. */
  version: Date;
}

export interface OriginReaderSettings {
  secretKey: Buffer;
  trustedRanges: OriginContext["trustedRanges"];
  /** Google Cloud Storage's JSON API (TROVE_GCS_API_ENDPOINT); unset: Google's. */
  gcsApiEndpoint?: string | undefined;
  /** Tests only: the resolver and connector outbound requests use (ServerConfig's `outbound`). */
  doubles?: { lookup?: LookupAll; connect?: Connector };
}

type ReaderContext = OriginContext & OriginReaderSettings["doubles"] & { apiEndpoint?: string };
type ReaderFactory = (configuration: never, context: ReaderContext) => OriginReader;

/**
 * A vendor's reader, its module (and the vendor's client library) loaded by the first read: a
 * server without a source of that type never loads it (importing @azure/storage-blob alone took
 * about 0.4 s of CPU on a busy 2-core machine). The wrapper has no `scope`: that is asked
 * synchronously, before any read could have loaded the module, so a reader that needs one (only
 * image_source's, below) is not loaded this way.
 */
function loadedOnFirstRead(load: () => Promise<ReaderFactory>): ReaderFactory {
  return (configuration, context) => {
    let reader: Promise<OriginReader> | undefined;
    const loaded = () => {
      reader ??= load().then((factory) => factory(configuration, context));
      return reader;
    };
    return {
      read: async (request) => (await loaded()).read(request),
      // Nothing to release before the first read.
      close: async () => {
        if (reader) await (await reader).close?.();
      },
    };
  };
}

const FACTORIES: Record<SourceType, ReaderFactory> = {
  s3: loadedOnFirstRead(async () => (await import("./s3-origin.js")).createS3OriginReader as ReaderFactory),
  azure: loadedOnFirstRead(
    async () => (await import("./azure-origin.js")).createAzureOriginReader as ReaderFactory,
  ),
  google_cloud: loadedOnFirstRead(
    async () => (await import("./gcs-origin.js")).createGcsOriginReader as ReaderFactory,
  ),
  // Plain HTTP through the guarded fetch the server loads anyway; its `scope` is synchronous.
  image_source: createImageSourceOriginReader as ReaderFactory,
};

export class OriginReaders {
  readonly #readers = new Map<string, { reader: OriginReader; timer: NodeJS.Timeout }>();

  constructor(private readonly settings: OriginReaderSettings) {}

  /** The reader of `source` at its current version. */
  readerOf(source: SourceRow): OriginReader {
    const key = `${source.id}\n${source.version.getTime()}`;
    const kept = this.#readers.get(key);
    if (kept) {
      kept.timer.refresh();
      return kept.reader;
    }
    const factory = FACTORIES[source.type];
    const configuration = openConfiguration(this.settings.secretKey, source.configuration);
    const reader = factory(configuration as never, {
      sourceName: source.name,
      trustedRanges: this.settings.trustedRanges,
      ...this.settings.doubles,
      ...(this.settings.gcsApiEndpoint ? { apiEndpoint: this.settings.gcsApiEndpoint } : {}),
    });
    if (this.#readers.size >= MAX_READERS) this.#drop(this.#readers.keys().next().value as string);
    const timer = setTimeout(() => this.#drop(key), READER_IDLE_MS);
    timer.unref();
    this.#readers.set(key, { reader, timer });
    return reader;
  }

  /** Drops every kept reader (server shutdown). */
  close(): void {
    for (const key of [...this.#readers.keys()]) this.#drop(key);
  }

  #drop(key: string): void {
    const kept = this.#readers.get(key);
    if (!kept) return;
    clearTimeout(kept.timer);
    this.#readers.delete(key);
    // A read in progress keeps its own request; closing only stops reuse.
    kept.reader.close?.().catch(() => undefined);
  }
}
