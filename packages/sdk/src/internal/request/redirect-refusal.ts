/**
 * undici's answer to a redirect under `redirect: "error"`: TypeError, cause "unexpected redirect".
 * Node requests whose body must not be held (file parts, streamed direct uploads) use that mode,
 * the only one in which fetch does not clone the request, and with it tee the body.
 */
export function isRedirectRefusal(error: unknown): boolean {
  return (
    error instanceof TypeError && (error.cause as { message?: unknown })?.message === "unexpected redirect"
  );
}
