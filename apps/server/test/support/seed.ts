/**
 * Seeding helpers for route tests: rows and stored objects without going through the upload API.
 *
 *   const folder = await seedFolder(t.app, t.workspace, "photos/2024");       // creates photos, photos/2024
 *   const file = await seedFile(t.app, t.workspace, {
 *     name: "cat.jpg", folderPath: "photos/2024", content: Buffer.from("..."), mimeType: "image/jpeg", tags: ["pets"],
 *   });
 *   file.fileNo        // bigint (the API exposes String(file.fileNo))
 *   file.path          // "photos/2024/cat.jpg"
 *   file.url           // `${assetsUrl}/${workspace_no}/photos/2024/cat.jpg`
 */
import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { File, Folder, Workspace } from "../../src/generated/prisma/client.js";
import { randomShortNo } from "../../src/ids.js";
import { objectKey } from "../../src/storage/driver.js";

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  mp4: "video/mp4",
  webm: "video/webm",
  pdf: "application/pdf",
  txt: "text/plain",
  json: "application/json",
};

const FORMAT_BY_EXTENSION: Record<string, string> = { jpg: "jpeg" };

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/** Creates every folder of `path` that does not exist yet; returns the deepest one. */
export async function seedFolder(app: FastifyInstance, workspace: Workspace, path: string): Promise<Folder> {
  const segments = splitPath(path);
  if (segments.length === 0) throw new Error("seedFolder: empty path");
  let parent = null as Folder | null;
  for (let i = 0; i < segments.length; i++) {
    const folderPath = segments.slice(0, i + 1).join("/");
    const existing: Folder | null = await app.db.folder.findUnique({
      where: { workspaceId_path: { workspaceId: workspace.id, path: folderPath } },
    });
    parent =
      existing ??
      (await app.db.folder.create({
        data: {
          folderNo: randomShortNo(),
          workspaceId: workspace.id,
          parentId: parent?.id ?? null,
          name: segments[i] as string,
          path: folderPath,
        },
      }));
  }
  return parent as Folder;
}

export interface SeedFileInput {
  name: string;
  folderPath?: string;
  content?: Buffer;
  mimeType?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  width?: number | null;
  height?: number | null;
  customId?: string | null;
  isPrivate?: boolean;
  createdAt?: Date;
  /** API key id recorded as `createdBy`. */
  createdBy?: string | null;
}

export type SeededFile = File & { url: string; content: Buffer };

/** Stores `content` (default "hello world") and creates its File row (and folders). */
export async function seedFile(
  app: FastifyInstance,
  workspace: Workspace,
  input: SeedFileInput,
): Promise<SeededFile> {
  const content = input.content ?? Buffer.from("hello world");
  const folder = input.folderPath ? await seedFolder(app, workspace, input.folderPath) : null;
  const dot = input.name.lastIndexOf(".");
  const extension = dot > 0 ? input.name.slice(dot + 1).toLowerCase() : "";
  const mimeType = input.mimeType ?? MIME_BY_EXTENSION[extension] ?? "application/octet-stream";
  const id = randomUUID();
  const storageKey = objectKey(workspace.id, id, input.name);
  const stored = await app.storage.put(storageKey, Readable.from([content]));
  const path = folder ? `${folder.path}/${input.name}` : input.name;
  const file = await app.db.file.create({
    data: {
      id,
      workspaceId: workspace.id,
      folderId: folder?.id ?? null,
      name: input.name,
      path,
      storageKey,
      size: BigInt(stored.size),
      mimeType,
      format: FORMAT_BY_EXTENSION[extension] ?? (extension || "bin"),
      extension,
      width: input.width ?? null,
      height: input.height ?? null,
      hash: createHash("sha256").update(content).digest("hex"),
      tags: input.tags ?? [],
      metadata: (input.metadata ?? {}) as object,
      customId: input.customId ?? null,
      uploadSource: "seed",
      isPrivate: input.isPrivate ?? false,
      createdBy: input.createdBy ?? null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    },
  });
  return { ...file, url: app.deliveryUrl(workspace.workspaceNo, path), content };
}
