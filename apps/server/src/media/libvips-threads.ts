/**
 * How many threads libvips gives one image operation: a process-wide setting of libvips, so it is
 * set once, by the server's services (TROVE_RENDER_THREADS, src/delivery/delivery-limits.ts).
 *
 * libvips' default is a thread per core for every operation. A delivery host runs several
 * renders at once (the render gate's slots), each then asking for every core: on 2 cores, two
 * renders ran six threads that mostly woke each other up (about 340 futex calls per fresh
 * render). Decoding a JPEG and encoding one are sequential in libjpeg anyway, so one render
 * gains little from more threads (a 12 MP `w_1200` took about the same time with one as with
 * two); the gate's concurrency is what uses the cores.
 */
import sharp from "sharp";

export function useLibvipsThreads(threads: number): void {
  if (sharp.concurrency() !== threads) sharp.concurrency(threads);
}
