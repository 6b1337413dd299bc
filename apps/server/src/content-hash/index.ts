/**
 * # Content hash: the `hash` of every stored file
 *
 * One definition (the "b1" block tree, ./block-hash.ts) computed three ways, so equal content
 * gets an equal hash however it arrived:
 *
 * ```ts
 * import { BlockHasher, combineBlockDigests, combinePartBlockDigests, hashStream } from "../content-hash/index.js";
 *
 * const { hash, size } = await hashStream(readable);       // a whole stream (a remote URL's)
 * const hasher = new BlockHasher();                         // bytes as they pass (direct upload, a part)
 * hasher.update(chunk); const digests = hasher.digest();    // then combineBlockDigests(digests)
 * combinePartBlockDigests(parts);                           // multipart: the parts' digests, in order
 * ```
 *
 * It lives in a folder of its own because uploads, multipart sessions and the multipart storage
 * layer all compute it, and none of them owns it. Hashing an object already in storage, in ranges
 * (./hash-stored-object.ts, direct-mode multipart), is imported from its own file: it reads
 * through the storage driver, which the storage layer's own use of this index must not import.
 */
export {
  BLOCK_SIZE,
  BlockHasher,
  type BlockHashResult,
  BlockHashStream,
  CONTENT_HASH_SCHEME,
  combineBlockDigests,
  combinePartBlockDigests,
  hashStream,
} from "./block-hash.js";
