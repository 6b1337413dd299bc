// With smallUploads: "session", a small upload in a browser that listens to progress goes as a
// one-part multipart session (ClientOptions.smallUploads): its bytes by XMLHttpRequest to a key-less part URL, pausable.
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeMultipart, patternBytes, sleep } from "../../../test/support/fake-multipart.js";
import { FakeXhr } from "../../../test/support/fake-xhr.js";
import { envelopeUploadResponse } from "../../../test/support/fixtures.js";
import { BASE_URL, testClient, useMswServer } from "../../../test/support/msw-server.js";
import type { UploadProgress } from "./upload-options.js";

const server = useMswServer();
const SIZE = 5000;

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.instances = [];
});

/** Counts direct POSTs, answering each as the server would. */
function directUploads() {
  const seen = { count: 0 };
  server.use(
    http.post(`${BASE_URL}/api/v1/uploads`, () => {
      seen.count++;
      return HttpResponse.json(envelopeUploadResponse);
    }),
  );
  return seen;
}

describe("small uploads in a browser", () => {
  it("go as one part through XMLHttpRequest, with bytes reported as they go and no key on the part", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const direct = directUploads();
    const storage = fakeMultipart(server, { size: SIZE, partSize: SIZE });
    const events: UploadProgress[] = [];
    const task = testClient({ smallUploads: "session" }).upload(
      new File([patternBytes(SIZE)], "photo.jpg", { type: "image/jpeg" }),
      {
        transform: "w_100",
        onProgress: (p) => events.push(p),
      },
    );
    expect(task.pausable).toBe(true);
    await task;
    expect(direct.count).toBe(0);
    expect(storage.starts).toEqual([
      expect.objectContaining({
        file_name: "photo.jpg",
        size: SIZE,
        format: "image/jpeg",
        transform: "w_100",
      }),
    ]);
    expect(FakeXhr.instances).toHaveLength(1);
    expect(storage.putHeaders[0]?.get("x-api-key")).toBeNull();
    expect(storage.putHeaders[0]?.get("authorization")).toBeNull();
    expect(storage.assembled()).toEqual(patternBytes(SIZE));
    // Half the body reported before it was confirmed: progress as the bytes go out.
    expect(events.some((event) => event.loaded > 0 && event.loaded < SIZE)).toBe(true);
    expect(events.at(-1)).toEqual({ loaded: SIZE, confirmed: SIZE, total: SIZE, percent: 100 });
  });

  it("can be paused while its part is in flight and resumed, sending the part again", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    let held = true;
    const storage = fakeMultipart(server, {
      size: SIZE,
      partSize: SIZE,
      onPart: async () => {
        while (held) await sleep(5);
        return undefined;
      },
    });
    const task = testClient({ smallUploads: "session" }).upload(patternBytes(SIZE), {
      fileName: "a.bin",
      onProgress: () => {},
    });
    while (storage.puts.length === 0) await sleep(5);
    expect(task.pause()).toBe(true);
    await sleep(20);
    held = false;
    task.resume();
    await task;
    expect(storage.puts).toEqual([0, 0]);
    expect(storage.completes).toHaveLength(1);
  });

  it("fall back to one direct POST when the credential's policy refuses multipart", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const direct = directUploads();
    server.use(
      http.post(`${BASE_URL}/api/v1/multipart/start`, () =>
        HttpResponse.json(
          {
            success: false,
            error: "Forbidden",
            message: "Multipart uploads are not allowed with this credential",
            errorCode: "MULTIPART_NOT_ALLOWED",
          },
          { status: 403 },
        ),
      ),
    );
    await testClient({ smallUploads: "session" }).upload(patternBytes(SIZE), {
      fileName: "a.bin",
      onProgress: () => {},
    });
    expect(direct.count).toBe(1);
  });

  it("go in one direct POST by default, without onProgress, with smallUploads: direct, and outside browsers", async () => {
    const direct = directUploads();
    const storage = fakeMultipart(server, { size: SIZE, partSize: SIZE });
    const upload = (options: Parameters<typeof testClient>[0], withProgress: boolean) =>
      testClient(options).upload(patternBytes(SIZE), {
        fileName: "a.bin",
        ...(withProgress ? { onProgress: () => {} } : {}),
      });
    const node = upload({}, true);
    expect(node.pausable).toBe(false);
    await node;
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    await upload({ smallUploads: "session" }, false);
    await upload({}, true);
    const opted = upload({ smallUploads: "direct" }, true);
    expect(opted.pausable).toBe(false);
    await opted;
    expect(direct.count).toBe(4);
    expect(storage.starts).toEqual([]);
  });
});
