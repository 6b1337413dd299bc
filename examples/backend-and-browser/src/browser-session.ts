/**
 * Which browser is asking: a random id in an HttpOnly cookie, set the first time the page or an
 * `/api/` route is requested. It stands in for your application's signed-in user: the backend
 * keys the upload folder and the file list on it, so a page sees only what it uploaded. Nothing
 * is stored server side; the folder in Trove is the record. A new browser (or cleared cookies)
 * starts an empty list; the files stay in Trove.
 */
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

const COOKIE = "trove_example_session";
/** 128 random bits as hex: unguessable, and a valid folder name. */
const SESSION_ID = /^[0-9a-f]{32}$/;

export function browserSession(request: FastifyRequest, reply: FastifyReply): string {
  const current = request.cookies[COOKIE];
  if (current && SESSION_ID.test(current)) return current;
  const id = randomBytes(16).toString("hex");
  reply.setCookie(COOKIE, id, { path: "/", httpOnly: true, sameSite: "strict" });
  return id;
}
