/**
 * # Content hash: the `hash` of every stored file
 *
 * One definition (the "b1" block tree, ./block-hash.ts) computed three ways, so equal content
 * gets an equal hash however it arrived:
 *
 * ```ts
 * import { BlockHasher, combineBlockDigests, combinePartBlockDigests, hashStream } from "../content-hash/index.js";
 *
 * const { hash, size } = await hashStream(readable);       // a whole stream (remote, direct mode)
 * const hasher = new BlockHasher();                         // bytes as they pass (direct upload, a part)
 * hasher.update(chunk); const digests = hasher.digest();    // then combineBlockDigests(digests)
 * combinePartBlockDigests(parts);                           // multipart: the parts' digests, in order
 * ```
 *
 * It lives in a folder of its own because uploads, multipart sessions and the multipart storage
 * layer all compute it, and none of them owns it.
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
