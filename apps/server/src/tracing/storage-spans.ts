/**
 * `withStorageSpans(driver)`: the storage driver with a CLIENT span around each call (`storage put`,
 * `get`, `open`, `stat`, `exists`, `delete`), a child of whatever request or job made it. A `get` or
 * `open` span ends when the stream is open, not when it has been read. Used only while tracing is on.
 */

import type { Readable } from "node:stream";
import { SpanKind } from "@opentelemetry/api";
import type {
  ByteRange,
  ObjectStat,
  OpenedObject,
  PutOptions,
  PutResult,
  StorageDriver,
} from "../storage/driver.js";
import type { MultipartStore } from "../storage/multipart/types.js";
import { inSpan } from "./in-span.js";

class TracedStorageDriver implements StorageDriver {
  readonly kind: string;
  readonly multipart?: MultipartStore;
  readonly localPath?: (key: string) => string;
  readonly open?: (key: string) => Promise<OpenedObject | null>;

  constructor(private readonly driver: StorageDriver) {
    this.kind = driver.kind;
    if (driver.multipart) this.multipart = driver.multipart;
    if (driver.localPath) this.localPath = driver.localPath.bind(driver);
    const open = driver.open?.bind(driver);
    if (open) this.open = (key) => this.#span("open", () => open(key));
  }

  #span<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return inSpan(`storage ${operation}`, { "trove.storage.driver": this.kind }, fn, SpanKind.CLIENT);
  }

  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<PutResult> {
    return this.#span("put", () => this.driver.put(key, body, options));
  }

  get(key: string, options?: { range?: ByteRange }): Promise<Readable> {
    return this.#span("get", () => this.driver.get(key, options));
  }

  stat(key: string): Promise<ObjectStat | null> {
    return this.#span("stat", () => this.driver.stat(key));
  }

  exists(key: string): Promise<boolean> {
    return this.#span("exists", () => this.driver.exists(key));
  }

  delete(key: string): Promise<void> {
    return this.#span("delete", () => this.driver.delete(key));
  }

  list(prefix: string): AsyncIterable<ObjectStat> {
    return this.driver.list(prefix);
  }
}

export function withStorageSpans(driver: StorageDriver): StorageDriver {
  return new TracedStorageDriver(driver);
}
