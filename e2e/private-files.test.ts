// Private files through the SDK against the real server over HTTP: upload private, signed URLs
// from the server, privacy changes; the plain URL is a 404 throughout.
import { useServerProcess } from "@trove/test-support/server-per-file";
import { describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";

// A 1×1 PNG.
const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);

describe("private files through the SDK", () => {
  const server = useServerProcess();
  const admin = () => adminClient(server);

  it("uploads private, signs URLs on the server, and makes the file public and private again", async () => {
    const trove = admin();
    const file = await trove.upload(PNG, { fileName: "private.png", isPrivate: true });
    // The upload result, whichever body the server answered with (wrapped by default).
    const uploaded = { url: file.url, is_private: file.is_private, path: file.path };
    expect(uploaded.is_private).toBe(true);
    const plain = uploaded.url.split("?")[0] as string;
    expect((await fetch(uploaded.url)).status).toBe(200);
    expect((await fetch(plain)).status).toBe(404);

    const signed = await trove.signedUrl(file, { transform: "w_1,f_webp", expiresIn: 120 });
    const variant = await fetch(signed.url);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("image/webp");
    expect(variant.headers.get("cache-control")).toMatch(/^private, max-age=1[01]\d$/);
    expect(Date.parse(signed.expires_at) - Date.now()).toBeLessThanOrEqual(120_000);

    const made = await trove.files.update(file.file_no, { is_private: false });
    expect(made.is_private).toBe(false);
    expect((await fetch(plain)).status).toBe(200);
    await trove.files.update(file.file_no, { is_private: true });
    expect((await fetch(plain)).status).toBe(404);
  });
});
