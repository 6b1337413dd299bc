/**
 * Filesystem storage driver: objects are files under `root`, at their key's path.
 *
 * Writes stream into `<root>/.tmp/<random>`, then `rename` into place, so readers never see a
 * partial object and a failed upload leaves nothing behind. A put of a new key (`newKey`, which
 * no reader can know yet) writes in place and removes what it wrote if it fails. Keys are validated
 * (`assertValidKey`) and the resolved path is checked to stay inside `root`.
 */
import { randomUUID } from "node:crypto";
import {
  closeSync,
  constants,
  createReadStream,
  createWriteStream,
  fstatSync,
  mkdir as mkdirCallback,
  open as openCallback,
  type Stats,
  type WriteStream,
  writeFile as writeFileCallback,
} from "node:fs";
import { mkdir, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import {
  assertValidKey,
  type ByteRange,
  InvalidObjectKeyError,
  ObjectNotFoundError,
  type ObjectStat,
  ObjectTooLargeError,
  type OpenedObject,
  type PutOptions,
  type PutResult,
  SizeMismatchError,
  type StorageDriver,
} from "./driver.js";
import { FS_MULTIPART_DIR, FsMultipartStore } from "./multipart/fs-multipart.js";
import type { MultipartStore } from "./multipart/types.js";

const TMP_DIR = ".tmp";
// The callback API, promisified, for the writes of every small upload: fs/promises' FileHandle
// costs the main thread about twice as much per write (0.08 against 0.04 ms for 100 KiB here).
const writeBytes = promisify(writeFileCallback);
const makeDirectory = promisify(mkdirCallback);
const openFile = promisify(openCallback);
/** Working directories of this driver (and of fs multipart uploads): never object keys. */
const RESERVED_DIRS = [TMP_DIR, FS_MULTIPART_DIR];
const isReserved = (key: string) => RESERVED_DIRS.some((dir) => key === dir || key.startsWith(`${dir}/`));

export class FsStorageDriver implements StorageDriver {
  readonly kind = "fs";
  readonly root: string;
  /** Multipart uploads in `<root>/.multipart`, assembled in place (./multipart/fs-multipart.ts). */
  readonly multipart: MultipartStore;
  /** `<root>/.tmp` made once, not per put (a recursive mkdir of an existing dir is 2 syscalls). */
  private tmpDirMade: Promise<unknown> | undefined;

  constructor(root: string) {
    this.root = resolve(root);
    this.multipart = new FsMultipartStore(this);
  }

  /** Absolute path of a key, guaranteed inside root. */
  localPath(key: string): string {
    assertValidKey(key);
    if (isReserved(key)) throw new InvalidObjectKeyError(key, "reserved prefix");
    const path = resolve(this.root, ...key.split("/"));
    const rel = relative(this.root, path);
    if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || resolve(this.root, rel) !== path) {
      throw new InvalidObjectKeyError(key, "outside root");
    }
    return path;
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<PutResult> {
    const target = this.localPath(key);
    const { maxBytes, expectedSize, newKey = false } = options;
    if (Buffer.isBuffer(body)) {
      if (maxBytes !== undefined && body.length > maxBytes) throw new ObjectTooLargeError(maxBytes);
      if (expectedSize !== undefined && body.length !== expectedSize) {
        throw new SizeMismatchError(expectedSize, body.length);
      }
    }
    // A new key is written where it belongs: no reader knows it yet (see PutOptions.newKey).
    const path = newKey ? target : join(this.root, TMP_DIR, randomUUID());
    if (newKey) await makeDirectory(dirname(target), { recursive: true });
    else await this.makeTmpDir();
    let size = 0;
    let writer: WriteStream | undefined;
    try {
      if (Buffer.isBuffer(body)) {
        await writeBytes(path, body, { flag: "wx", ...(options.signal ? { signal: options.signal } : {}) });
        size = body.length;
      } else {
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            size += chunk.length;
            if (maxBytes !== undefined && size > maxBytes) {
              callback(new ObjectTooLargeError(maxBytes));
              return;
            }
            callback(null, chunk);
          },
        });
        writer = createWriteStream(path, { flags: "wx" });
        await pipeline(body, meter, writer, { signal: options.signal });
        if (expectedSize !== undefined && size !== expectedSize) {
          throw new SizeMismatchError(expectedSize, size);
        }
      }
      if (!newKey) await renameInto(path, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The temporary directory was removed under us: make it again on the next put.
      if (code === "ENOENT" && !newKey) this.tmpDirMade = undefined;
      // The pipeline can reject before the write stream's open has finished: that open still
      // creates the file, so wait for the stream to close before removing what it made.
      // (Not events.once: it would reject on the stream's own 'error', emitted after this point.)
      const opening = writer;
      if (opening && !opening.closed) await new Promise<void>((done) => opening.once("close", () => done()));
      // "wx" refused a new key that exists: that object is someone else's, leave it.
      if (!(newKey && code === "EEXIST")) await rm(path, { force: true });
      throw error;
    }
    return { key, size };
  }

  private async makeTmpDir(): Promise<void> {
    this.tmpDirMade ??= mkdir(join(this.root, TMP_DIR), { recursive: true });
    await this.tmpDirMade.catch((error: unknown) => {
      this.tmpDirMade = undefined;
      throw error;
    });
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<Readable> {
    const opened = await this.#open(key, options.range);
    if (!opened) throw new ObjectNotFoundError(key);
    return opened.body;
  }

  open(key: string): Promise<OpenedObject | null> {
    return this.#open(key);
  }

  /**
   * Opens the file once and streams from that descriptor: one thread-pool round trip fewer than a
   * `stat` before the stream opens the path again, and no window between the two in which the
   * file can go. Its size comes from fstat, run inline: on a descriptor just opened it reads the
   * inode the open loaded, so it never waits on the disk.
   */
  async #open(key: string, range?: ByteRange): Promise<OpenedObject | null> {
    const path = this.localPath(key);
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted under the root cannot hold a thread-pool thread in open (a
      // regular file ignores the flag); the fstat below then refuses anything but a file.
      fd = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw error;
    }
    let info: Stats;
    try {
      info = fstatSync(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    if (!info.isFile()) {
      closeSync(fd);
      return null;
    }
    // The stream owns the descriptor from here: it closes it at the end, on error or destroy.
    const body = createReadStream(path, range ? { fd, start: range.start, end: range.end } : { fd });
    return { size: info.size, body };
  }

  async stat(key: string): Promise<ObjectStat | null> {
    const info = await stat(this.localPath(key)).catch(() => null);
    if (!info?.isFile()) return null;
    return { key, size: info.size, modifiedAt: info.mtime };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await unlink(this.localPath(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }

  async *list(prefix: string): AsyncIterable<ObjectStat> {
    if (prefix !== "") assertValidKey(prefix, { allowPrefix: true });
    // Walk the deepest directory the prefix names fully, then filter by the full prefix.
    const slash = prefix.lastIndexOf("/");
    const dirKey = slash === -1 ? "" : prefix.slice(0, slash);
    const start = dirKey === "" ? this.root : this.localPath(dirKey);
    const walk = async function* (this: FsStorageDriver, dir: string): AsyncIterable<ObjectStat> {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const path = join(dir, entry.name);
        const key = relative(this.root, path).split(sep).join("/");
        if (isReserved(key)) continue;
        if (entry.isDirectory()) {
          yield* walk.call(this, path);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          const info = await stat(path).catch(() => null);
          if (info) yield { key, size: info.size, modifiedAt: info.mtime };
        }
      }
    };
    yield* walk.call(this, start);
  }
}

/**
 * Moves a written temporary file to its key, making the key's directory only when the move says
 * it is missing: most puts land in a directory that exists, and a mkdir per put is a thread-pool
 * round trip of its own.
 */
async function renameInto(path: string, target: string): Promise<void> {
  try {
    await rename(path, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(dirname(target), { recursive: true });
    await rename(path, target);
  }
}
