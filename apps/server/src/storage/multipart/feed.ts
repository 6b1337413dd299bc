/**
 * Pipes a part body into the meter without tying the body's fate to it. `stream.pipeline` would
 * destroy the body (an HTTP request) when the upload fails, and with it the socket the route
 * still has to answer on; here a failure only stops reading, and the caller decides what to do
 * with the rest of the body (respond, then drain or close).
 */
import { finished, type Readable, type Writable } from "node:stream";

/** Starts `body.pipe(dest)`; body errors and premature closes fail `dest`. Returns a detach function. */
export function feed(body: Readable, dest: Writable): () => void {
  const stopWatching = finished(body, { writable: false }, (error) => {
    if (error) dest.destroy(error);
  });
  body.pipe(dest);
  return () => {
    stopWatching();
    body.unpipe(dest);
  };
}
