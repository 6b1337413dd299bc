/**
 * Stand-in routes for cross-cutting tests (auth, envelopes, rate limits), one or more per endpoint
 * group, under `__probe` paths that cannot collide with the real routes (static segments win over
 * `:params`). Each echoes `request.auth` and its JSON body. Paths are in `PROBE`.
 */
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { HttpError } from "../../src/errors/http-error.js";
import { parseFileNo, parseUuidParam } from "../../src/errors/params.js";

export const PROBE = {
  upload: "/api/v1/uploads/__probe",
  uploadBoom: "/api/v1/uploads/__probe/boom",
  multipart: "/api/v1/multipart/__probe",
  multipartBoom: "/api/v1/multipart/__probe/boom",
  files: "/api/v1/files/__probe",
  fileByNo: (fileNo: string) => `/api/v1/files/__probe/no/${fileNo}`,
  filesValidate: "/api/v1/files/__probe/validate",
  filesBoom: "/api/v1/files/__probe/boom",
  filesConflict: "/api/v1/files/__probe/conflict",
  /** Throws what Prisma throws when PostgreSQL drops the connection (P1017). */
  outage: (group: "uploads" | "multipart" | "files") => `/api/v1/${group}/__probe/outage`,
  folderCreate: "/api/v1/folders/__probe/create",
  folderRename: (folderNo: string) => `/api/v1/folders/__probe/rename/${folderNo}`,
  sources: "/api/v1/sources/__probe",
  sourceById: (id: string) => `/api/v1/sources/__probe/id/${id}`,
  /** No `config.auth`: the /api/ default ("private") applies. */
  defaultAuth: "/api/v1/__probe/default-auth",
  /** No `config.auth` under /admin/: the admin token is required. */
  defaultAdminAuth: "/admin/v1/__probe/default-auth",
} as const;

export const probeRoutes: FastifyPluginAsync = async (app) => {
  const echo = async (request: { auth: unknown; body?: unknown }) => ({
    auth: request.auth,
    body: request.body ?? null,
  });
  app.post(PROBE.upload, { config: { auth: "any" } }, echo);
  app.post(PROBE.multipart, { config: { auth: "any" } }, echo);
  app.get(PROBE.files, { config: { auth: "private" } }, echo);
  app.get<{ Params: { fileNo: string } }>("/api/v1/files/__probe/no/:fileNo", async (request) => ({
    fileNo: String(parseFileNo(request.params.fileNo)),
  }));
  app.post(PROBE.folderCreate, { config: { auth: "private", errorVariant: "folder-create" } }, echo);
  app.patch("/api/v1/folders/__probe/rename/:folderNo", echo);
  app.post(PROBE.sources, echo);
  app.get<{ Params: { sourceId: string } }>("/api/v1/sources/__probe/id/:sourceId", async (request) => ({
    id: parseUuidParam(request.params.sourceId, "sources"),
  }));
  app.get(PROBE.defaultAuth, echo);
  app.get(PROBE.defaultAdminAuth, echo);
  app.post(PROBE.filesValidate, async (request) => {
    const body = z.object({ name: z.string().min(1) }).parse(request.body);
    return body;
  });
  app.get(PROBE.filesBoom, async () => {
    throw new Error("database password is hunter2");
  });
  app.get(PROBE.uploadBoom, { config: { auth: "any" } }, async () => {
    throw new Error("secret internals");
  });
  app.get(PROBE.multipartBoom, { config: { auth: "any" } }, async () => {
    throw new Error("secret internals");
  });
  for (const group of ["uploads", "multipart", "files"] as const) {
    app.get(PROBE.outage(group), { config: { auth: "any" } }, async () => {
      throw Object.assign(new Error("Server has closed the connection. password=hunter2"), { code: "P1017" });
    });
  }
  app.get(PROBE.filesConflict, async () => {
    throw new HttpError(409, "Name already used");
  });
};
