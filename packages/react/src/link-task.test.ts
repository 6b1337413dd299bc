import { AbortError, type UploadResult } from "@trove/sdk/upload";
import { describe, expect, it } from "vitest";
import { linkTask, nameOfLink, parseLink } from "./link-task.js";

describe("upload from a link", () => {
  it("takes only absolute http(s) URLs, and names the row after the last path segment, decoded", () => {
    expect(parseLink("  https://example.com/a.png ")?.href).toBe("https://example.com/a.png");
    for (const text of ["ftp://example.com/a.png", "javascript:alert(1)", "/relative.png", "not a url", ""]) {
      expect(parseLink(text)).toBeUndefined();
    }
    expect(nameOfLink(new URL("https://example.com/photos/sea%20view.jpg?w=1"))).toBe("sea view.jpg");
    expect(nameOfLink(new URL("https://example.com/"))).toBe("example.com");
    expect(nameOfLink(new URL("https://example.com/%E0%A4%A"))).toBe("%E0%A4%A");
  });

  it("runs as an unpausable task whose abort reaches the remote upload's signal", async () => {
    let seen: AbortSignal | undefined;
    const client = {
      uploadFromUrl: (_url: string, options?: { signal?: AbortSignal }) =>
        new Promise<UploadResult>((_resolve, reject) => {
          seen = options?.signal;
          seen?.addEventListener("abort", () => reject(new AbortError("aborted", { code: "ABORTED" })));
        }),
    };
    const task = linkTask(client, "https://example.com/a.png", { folder: "x" });
    expect(task.pausable).toBe(false);
    expect(task.pause()).toBe(false);
    task.abort();
    expect(seen?.aborted).toBe(true);
    await expect(task.promise).rejects.toMatchObject({ code: "ABORTED" });
  });
});
