// Every management method of the SDK against the real server over HTTP.
import { ConflictError, createClient, NotFoundError, PermissionDeniedError } from "@trove/sdk";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";

describe("managing files, folders and sources through the SDK", () => {
  const server = useServerProcess();
  const admin = () => adminClient(server);

  it("creates, lists, renames and deletes folders", async () => {
    const trove = admin();
    const parent = await trove.folders.create({ name: "campaign" });
    const child = await trove.folders.create({ name: "2026", parent_folder_no: parent.folder_no });
    expect((await trove.folders.list({})).folders.map((f) => f.name)).toContain("campaign");
    const children = await trove.folders.list({ parent_folder_no: parent.folder_no });
    expect(children.folders.map((f) => f.folder_no)).toEqual([child.folder_no]);

    const renamed = await trove.folders.rename(parent.folder_no, "campaign-2026");
    expect(renamed.path).toBe("campaign-2026");

    await trove.upload(new Uint8Array([1, 2, 3]), { fileName: "a.bin", folder: "campaign-2026/2026" });
    await expect(trove.folders.delete(parent.folder_no)).rejects.toBeInstanceOf(ConflictError);
  });

  it("lists every page of files, reads, renames and deletes one", async () => {
    const trove = admin();
    for (let i = 0; i < 7; i++) {
      await trove.upload(new TextEncoder().encode(`file ${i}`), {
        fileName: `page-${i}.txt`,
        folder: "pages",
      });
    }
    const seen: string[] = [];
    for await (const row of trove.files.listAll({ path: "pages", limit: 3 })) {
      seen.push(row.name);
      expect(row.thumbnail).toBe(row.thumbanil);
    }
    expect(seen.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `page-${i}.txt`));

    const first = (await trove.files.list({ path: "pages", sort: "name_asc", limit: 1 })).files[0]!;
    const details = await trove.files.get(first.file_no);
    expect(details.name).toBe("page-0.txt");

    const renamed = await trove.files.rename(first.file_no, "renamed");
    expect(renamed.name).toBe("renamed.txt");
    const delivered = await fetch(renamed.url);
    expect(await delivered.text()).toBe("file 0");

    await trove.files.delete(first.file_no);
    await expect(trove.files.get(first.file_no)).rejects.toBeInstanceOf(NotFoundError);
    expect((await fetch(renamed.url)).status).toBe(404);
  });

  it("creates, lists, updates (masked secret kept) and deletes sources", async () => {
    const trove = admin();
    const source = await trove.sources.create({
      name: "product-images",
      type: "s3",
      configuration: {
        bucket: "media",
        region: "eu-west-1",
        access_key: "AKIA-E2E",
        secret_key: "S3CRET-E2E",
      },
    });
    expect(source.configuration).toMatchObject({ access_key: "********", secret_key: "********" });

    const updated = await trove.sources.update(source.id, {
      configuration: { region: "eu-central-1", secret_key: "********" },
    });
    expect(updated.configuration).toMatchObject({ region: "eu-central-1", secret_key: "********" });
    expect(updated.updated_at).not.toBeNull();

    const names: string[] = [];
    for await (const s of trove.sources.listAll({ type: "s3", limit: 1 })) names.push(s.name);
    expect(names).toEqual(["product-images"]);

    await expect(
      trove.sources.create({
        name: "product-images",
        type: "azure",
        configuration: {
          connection_string: "x",
          container_name: "y",
        },
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    await trove.sources.delete(source.id);
    await expect(trove.sources.get(source.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses management calls with the public key and isolates workspaces", async () => {
    const publicClient = createClient({ apiKey: server.keys.public, baseUrl: server.baseUrl });
    await expect(publicClient.folders.list({})).rejects.toBeInstanceOf(PermissionDeniedError);

    const mine = await admin().folders.create({ name: "private-stuff" });
    const other = createClient({ apiKey: server.keys.private2, baseUrl: server.baseUrl });
    await expect(other.folders.rename(mine.folder_no, "stolen")).rejects.toBeInstanceOf(NotFoundError);
  });
});
