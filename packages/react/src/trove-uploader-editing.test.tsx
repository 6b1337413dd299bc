// @vitest-environment happy-dom
// How <TroveUploader> uses the editing module (resize, limits, the editor), with that module
// replaced by stand-ins that record their calls: the module itself is tested on its own, and in
// Chromium by e2e/react-uploader-ux.browser.test.ts.

import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeUploadClient } from "../test/support/fake-upload-client.js";
import { TroveProvider } from "./trove-provider.js";
import { TroveUploader, type TroveUploaderProps } from "./trove-uploader.js";

const editing = vi.hoisted(() => ({
  sizes: new Map<string, { width: number; height: number }>(),
  prepared: [] as Array<{ name: string; options: unknown }>,
}));

vi.mock("./editing/index.js", () => ({
  readImageSize: async (file: File) => editing.sizes.get(file.name) ?? null,
  prepareImage: async (file: File, options: unknown) => {
    editing.prepared.push({ name: file.name, options });
    return new File([new Uint8Array(10)], `small-${file.name}`, { type: file.type });
  },
  ImageEditor: (props: { file: File; onDone(file: File): void; onCancel(): void }) => (
    <div role="dialog" aria-label={`Edit ${props.file.name}`}>
      <button
        type="button"
        onClick={() => props.onDone(new File(["cropped"], "cropped.png", { type: "image/png" }))}
      >
        Apply
      </button>
      <button type="button" onClick={props.onCancel}>
        Discard
      </button>
    </div>
  ),
}));

afterEach(() => {
  cleanup();
  editing.sizes.clear();
  editing.prepared.length = 0;
});

function renderUploader(props: TroveUploaderProps) {
  const client = fakeUploadClient();
  render(
    <TroveProvider client={client} resume={false}>
      <TroveUploader {...props} />
    </TroveProvider>,
  );
  const input = document.querySelector<HTMLInputElement>(".trove-uploader__zone input")!;
  const choose = async (...files: File[]) => {
    await act(async () => {
      fireEvent.change(input, { target: { files } });
    });
  };
  return { client, choose };
}

const image = (name: string) => new File([new Uint8Array(2_000)], name, { type: "image/png" });

describe("<TroveUploader> with the editing module", () => {
  it("refuses an image outside `limits` before sending it, and sends one inside", async () => {
    editing.sizes.set("small.png", { width: 640, height: 480 });
    editing.sizes.set("fine.png", { width: 1200, height: 900 });
    const rejected: string[] = [];
    const { client, choose } = renderUploader({
      limits: { minWidth: 800 },
      onReject: (all) => rejected.push(...all.map((r) => `${r.reason}:${r.file.name}`)),
    });
    await choose(image("small.png"), image("fine.png"), new File(["x"], "notes.txt"));
    expect(screen.getByRole("alert").textContent).toBe(
      "small.png is 640×480 px: it must be at least 800 px wide",
    );
    expect(rejected).toEqual(["dimensions:small.png"]);
    expect(client.tasks.map((task) => task.file.name)).toEqual(["fine.png", "notes.txt"]);
  });

  it("with `resize`, sends what prepareImage returns", async () => {
    const { client, choose } = renderUploader({ resize: { maxWidth: 1600, quality: 0.8 } });
    await choose(image("big.png"));
    expect(editing.prepared).toEqual([{ name: "big.png", options: { maxWidth: 1600, quality: 0.8 } }]);
    expect(client.tasks.map((task) => task.file.name)).toEqual(["small-big.png"]);
  });

  it("with `editor`, files wait; Edit opens the editor on an image, and its result replaces the file", async () => {
    const { client, choose } = renderUploader({ editor: true });
    await choose(image("photo.png"), new File(["%PDF"], "doc.pdf", { type: "application/pdf" }));
    expect(client.tasks).toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Edit doc.pdf" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Edit photo.png" }));
    fireEvent.click(screen.getByRole("button", { name: "Discard" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Edit photo.png" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    });
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Upload 2 files" }));
    // The edited file is what is sent, in the row's place.
    expect(client.tasks.map((task) => [task.file.name, task.file.size])).toEqual([
      ["cropped.png", 7],
      ["doc.pdf", 4],
    ]);
  });
});
