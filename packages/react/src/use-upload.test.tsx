// @vitest-environment happy-dom

import { act, cleanup, renderHook } from "@testing-library/react";
import { RateLimitError } from "@trove/sdk/upload";
import { type ReactNode, StrictMode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeUploadClient } from "../test/support/fake-upload-client.js";
import { TroveProvider } from "./trove-provider.js";
import { type UseUploadOptions, useUpload } from "./use-upload.js";

afterEach(cleanup);

const big = (name: string) => new File([new Uint8Array(5_000)], name);
const small = (name: string) => new File([new Uint8Array(100)], name);

function setup(options: UseUploadOptions = {}, strict = false) {
  const client = fakeUploadClient();
  const wrapper = ({ children }: { children: ReactNode }) => {
    const tree = (
      <TroveProvider client={client} resume={false}>
        {children}
      </TroveProvider>
    );
    return strict ? <StrictMode>{tree}</StrictMode> : tree;
  };
  const hook = renderHook(() => useUpload(options), { wrapper });
  return { client, hook, current: () => hook.result.current };
}

/** Lets settled task promises run their handlers. */
const settle = () => act(async () => {});

describe("useUpload", () => {
  it("uploads added files with progress to done, and hands the result to onComplete", async () => {
    const onComplete = vi.fn();
    const { client, current } = setup({ onComplete, options: { folder: "avatars" } });
    act(() => void current().add([big("a.bin")]));
    const task = client.tasks[0]!;
    expect(task.options).toMatchObject({ folder: "avatars" });
    expect(current().items[0]).toMatchObject({ status: "uploading", pausable: true });

    act(() => task.progress(2_500, 1_000));
    expect(current().items[0]).toMatchObject({ sent: 2_500, confirmed: 1_000, percent: 50 });
    act(() => task.succeed({ file_no: "42" }));
    await settle();
    expect(current().items[0]).toMatchObject({ status: "done", percent: 100, result: { file_no: "42" } });
    expect(onComplete).toHaveBeenCalledWith(expect.objectContaining({ file_no: "42" }), expect.anything());
  });

  it("runs at most `concurrency` files at once and starts the next as one ends", async () => {
    const { client, current } = setup({ concurrency: 2 });
    act(() => void current().add([small("1"), small("2"), small("3"), small("4")]));
    expect(client.tasks.map((t) => t.file.name)).toEqual(["1", "2"]);
    expect(current().items.map((i) => i.status)).toEqual(["uploading", "uploading", "idle", "idle"]);

    act(() => client.tasks[0]!.succeed());
    await settle();
    expect(client.tasks.map((t) => t.file.name)).toEqual(["1", "2", "3"]);
  });

  it("pauses and resumes a multipart upload, and refuses to pause a direct one", () => {
    const { client, current } = setup();
    act(() => void current().add([big("parts.bin"), small("direct.bin")]));
    const [parts, direct] = current().items;
    act(() => current().pause(parts!.id));
    act(() => current().pause(direct!.id));
    expect(client.tasks[0]!.paused).toBe(true);
    expect(current().items.map((i) => i.status)).toEqual(["paused", "uploading"]);
    act(() => current().resume(parts!.id));
    expect(client.tasks[0]!.paused).toBe(false);
    expect(current().items[0]!.status).toBe("uploading");
  });

  it("aborts a file: its task is aborted, the row says aborted, the rejection is no error", async () => {
    const onError = vi.fn();
    const { client, current } = setup({ onError });
    act(() => void current().add([big("a.bin")]));
    act(() => current().abort(current().items[0]!.id));
    await settle();
    expect(client.tasks[0]!.aborted).toBe(true);
    expect(current().items[0]).toMatchObject({ status: "aborted", error: undefined });
    expect(onError).not.toHaveBeenCalled();
  });

  it("keeps the typed error of a failure and retries with a new task; the old task's events are ignored", async () => {
    const onError = vi.fn();
    const { client, current } = setup({ onError });
    act(() => void current().add([big("a.bin")]));
    const refusal = new RateLimitError("Too Many Requests", { code: "RATE_LIMITED", status: 429 });
    act(() => client.tasks[0]!.fail(refusal));
    await settle();
    expect(current().items[0]).toMatchObject({ status: "error", error: refusal });
    expect(onError).toHaveBeenCalledWith(refusal, expect.objectContaining({ status: "error" }));

    act(() => current().retry(current().items[0]!.id));
    expect(client.tasks).toHaveLength(2);
    act(() => client.tasks[0]!.progress(4_000, 4_000)); // the first attempt's late report
    expect(current().items[0]).toMatchObject({ status: "uploading", sent: 0, attempts: 2 });
    act(() => client.tasks[1]!.succeed());
    await settle();
    expect(current().items[0]!.status).toBe("done");
  });

  it("with autoStart off, waits for start()", () => {
    const { client, current } = setup({ autoStart: false });
    act(() => void current().add([small("a"), small("b")]));
    expect(client.tasks).toHaveLength(0);
    act(() => current().start(current().items[1]!.id));
    expect(client.tasks.map((t) => t.file.name)).toEqual(["b"]);
    act(() => current().start());
    expect(client.tasks.map((t) => t.file.name)).toEqual(["b", "a"]);
  });

  it("aborts every upload on unmount and sets no state afterwards", async () => {
    const onComplete = vi.fn();
    const { client, hook, current } = setup({ onComplete });
    act(() => void current().add([big("a.bin"), big("b.bin")]));
    const before = current();
    const spy = vi.spyOn(console, "error");
    hook.unmount();
    expect(client.tasks.map((t) => t.aborted)).toEqual([true, true]);
    client.tasks[1]!.progress(100); // a report already on its way
    await settle();
    expect(hook.result.current).toBe(before);
    expect(onComplete).not.toHaveBeenCalled();
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("under StrictMode starts each file exactly once and still uploads it", async () => {
    const { client, current } = setup({}, true);
    act(() => void current().add([small("a"), small("b")]));
    expect(client.tasks.map((t) => t.file.name)).toEqual(["a", "b"]);
    act(() => client.tasks[0]!.succeed());
    await settle();
    expect(current().items.map((i) => i.status)).toEqual(["done", "uploading"]);
    expect(client.tasks).toHaveLength(2);
  });

  it("lists the uploads a reload interrupted and forgets one on request", async () => {
    const client = fakeUploadClient();
    const session = { key: "k1", fileName: "big.mov", size: 100, confirmed: 70, startedAt: 1, expiresAt: 2 };
    client.sessions = [session];
    const deleted: string[] = [];
    const store = {
      get: async () => undefined,
      set: async () => undefined,
      delete: async (key: string) => {
        deleted.push(key);
        client.sessions = [];
      },
    };
    const hook = renderHook(() => useUpload(), {
      wrapper: ({ children }) => (
        <TroveProvider client={client} resume={store}>
          {children}
        </TroveProvider>
      ),
    });
    await settle();
    expect(hook.result.current.resumable).toEqual([session]);
    await act(() => hook.result.current.forget("k1"));
    await settle();
    expect(deleted).toEqual(["k1"]);
    expect(hook.result.current.resumable).toEqual([]);
  });

  it("without a provider fails each file with a TroveError saying what is missing", () => {
    const hook = renderHook(() => useUpload());
    act(() => void hook.result.current.add([small("a")]));
    expect(hook.result.current.items[0]!.status).toBe("error");
    expect(hook.result.current.items[0]!.error?.message).toMatch(/TroveProvider/);
  });

  it("a provider without baseUrl or key fails uploads with INVALID_ARGUMENT, not a crash", () => {
    const hook = renderHook(() => useUpload(), {
      wrapper: ({ children }) => <TroveProvider resume={false}>{children}</TroveProvider>,
    });
    act(() => void hook.result.current.add([small("a")]));
    expect(hook.result.current.items[0]!.error).toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
