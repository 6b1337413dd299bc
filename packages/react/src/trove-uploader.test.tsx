// @vitest-environment happy-dom

import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ValidationError } from "@trove/sdk/upload";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { fakeUploadClient } from "../test/support/fake-upload-client.js";
import { TroveProvider } from "./trove-provider.js";
import { TroveUploader } from "./trove-uploader.js";
import { TroveUploaderModal } from "./trove-uploader-modal.js";

afterEach(cleanup);

function renderUploader(props: Parameters<typeof TroveUploader>[0] = {}) {
  const client = fakeUploadClient();
  render(
    <TroveProvider client={client} resume={false}>
      <TroveUploader {...props} />
    </TroveProvider>,
  );
  // The drop zone's input (its label is the zone's text, which a test may replace).
  const input = document.querySelector<HTMLInputElement>(".trove-uploader__zone input")!;
  const choose = (...files: File[]) => fireEvent.change(input, { target: { files } });
  return { client, input, choose };
}

const png = (size = 2_000) => new File([new Uint8Array(size)], "cat.png", { type: "image/png" });

describe("<TroveUploader>", () => {
  it("refuses a file outside accept or over maxSize before sending anything, with an alert naming it", () => {
    const { client, choose } = renderUploader({ accept: "image/*", maxSize: 1_000 });
    choose(new File(["x"], "notes.txt", { type: "text/plain" }), png());
    expect(client.tasks).toHaveLength(0);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("notes.txt: this type of file is not accepted here");
    expect(alert.textContent).toContain("cat.png is 2.0 kB: the limit is 1.0 kB");
  });

  it("takes dropped files too, and shows the server's refusal on the row", async () => {
    const { client } = renderUploader();
    const zone = screen.getByRole("region");
    fireEvent.drop(zone, { dataTransfer: { files: [png()], types: ["Files"] } });
    expect(client.tasks.map((t) => t.file.name)).toEqual(["cat.png"]);
    const refusal = new ValidationError("Unsupported Media Type: image/png is not allowed", {
      code: "TYPE_NOT_ALLOWED",
      status: 415,
    });
    await act(async () => client.tasks[0]!.fail(refusal));
    const row = document.querySelector('li[data-name="cat.png"]')!;
    expect(row.getAttribute("data-state")).toBe("error");
    expect(screen.getByRole("alert").textContent).toBe(refusal.message);
    expect(screen.getByRole("button", { name: "Retry cat.png" })).toBeTruthy();
  });

  it("offers Pause only on a pausable upload and says in the live region what happened", async () => {
    const { client, choose } = renderUploader();
    choose(png(5_000));
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe("cat.png: uploading");
    act(() => client.tasks[0]!.progress(2_600));
    expect(live.textContent).toBe("cat.png: 52%");
    fireEvent.click(screen.getByRole("button", { name: "Pause cat.png" }));
    expect(live.textContent).toBe("cat.png: paused at 52%");
    expect(screen.queryByRole("button", { name: "Pause cat.png" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Resume cat.png" }));
    await act(async () => client.tasks[0]!.succeed());
    expect(live.textContent).toBe("cat.png: uploaded");
  });
});

describe("<TroveUploader> sources, previews and strings", () => {
  it("shows the chosen image itself in its row (an object URL), and an icon of the kind for other files", () => {
    const { choose } = renderUploader();
    choose(png(500), new File(["%PDF-1.7"], "terms.pdf", { type: "application/pdf" }));
    const image = document.querySelector('li[data-name="cat.png"] .trove-upload__preview img');
    expect(image?.getAttribute("src")).toMatch(/^blob:/);
    expect(image?.getAttribute("alt")).toBe(""); // decorative: the name is next to it
    const icon = document.querySelector('li[data-name="terms.pdf"] [data-preview="icon"] svg');
    expect(icon?.getAttribute("data-kind")).toBe("pdf");
    expect(icon?.getAttribute("aria-hidden")).toBe("true");
    expect(document.querySelector('li[data-name="terms.pdf"]')?.textContent).toContain("8 B");
    expect(document.querySelector(".trove-uploader__total")?.textContent).toBe("2 files · 0 B of 508 B");
  });

  it("uploads from a link through the client's remote-URL upload, named after the link, refusing a non-http text", async () => {
    const { client } = renderUploader({ options: { folder: "links" } });
    fireEvent.click(screen.getByRole("button", { name: "From a link" }));
    const field = screen.getByLabelText("File URL") as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: "ftp://example.com/a.png" } });
    fireEvent.submit(field.form!);
    expect(screen.getByRole("alert").textContent).toBe("Enter a link that starts with http:// or https://");
    expect(client.links).toHaveLength(0);

    fireEvent.change(field, { target: { value: "http://127.0.0.1:9/images/sea%20view.png" } });
    fireEvent.submit(field.form!);
    expect(client.links.map((link) => link.url)).toEqual(["http://127.0.0.1:9/images/sea%20view.png"]);
    expect(client.links[0]!.options).toMatchObject({ fileName: "sea view.png", folder: "links" });
    // The field closed and focus went back to its button.
    expect(screen.queryByLabelText("File URL")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "From a link" }));
    const row = document.querySelector('li[data-name="sea view.png"]')!;
    expect(row.getAttribute("data-state")).toBe("uploading");
    expect(row.querySelector('[data-preview="icon"] svg')?.getAttribute("data-kind")).toBe("link");
    await act(async () => client.links[0]!.succeed());
    expect(row.getAttribute("data-state")).toBe("done");
  });

  it('takes files dropped anywhere on the page or pasted with dropTarget="page", with an overlay while dragging', () => {
    const { client } = renderUploader({ dropTarget: "page" });
    const dataTransfer = { files: [png()], types: ["Files"], dropEffect: "none" };
    const dragEnter = new Event("dragenter", { bubbles: true, cancelable: true });
    Object.assign(dragEnter, { dataTransfer });
    act(() => void document.body.dispatchEvent(dragEnter));
    expect(document.querySelector(".trove-uploader__overlay")?.textContent).toBe("Drop files to upload");
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.assign(drop, { dataTransfer });
    act(() => void document.body.dispatchEvent(drop));
    expect(drop.defaultPrevented).toBe(true);
    expect(document.querySelector(".trove-uploader__overlay")).toBeNull();
    const paste = new Event("paste", { bubbles: true, cancelable: true });
    Object.assign(paste, { clipboardData: { files: [new File(["a"], "clip.png", { type: "image/png" })] } });
    act(() => void document.body.dispatchEvent(paste));
    expect(client.tasks.map((task) => task.file.name)).toEqual(["cat.png", "clip.png"]);
  });

  it("opens the picker on Enter as well as Space (Chromium's file input ignores Enter)", () => {
    const { input } = renderUploader();
    let opened = 0;
    input.addEventListener("click", () => opened++);
    fireEvent.keyDown(input, { key: "Enter" });
    fireEvent.keyDown(input, { key: "a" });
    expect(opened).toBe(1);
  });

  it("leaves drops outside it to the page by default", () => {
    const { client } = renderUploader();
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.assign(drop, { dataTransfer: { files: [png()], types: ["Files"] } });
    act(() => void document.body.dispatchEvent(drop));
    expect(client.tasks).toHaveLength(0);
  });

  it("says everything in the strings given, with counts and percentages in their locale", () => {
    const { client, choose } = renderUploader({
      autoStart: false,
      strings: {
        locale: "fr",
        dropLabel: "Déposez vos fichiers ici",
        pause: "Suspendre",
        cancel: "Annuler",
        status: { idle: "En attente" } as never,
        files: { one: "# fichier", other: "# fichiers" },
        startAll: (_count, files) => `Envoyer ${files}`,
        rejectedType: (name) => `${name} : type refusé`,
        announceProgress: (name, share) => `${name} : ${share}`,
      },
      accept: "image/*",
    });
    expect(screen.getByRole("region", { name: "Déposez vos fichiers ici" })).toBeTruthy();
    choose(png(5_000), png(3_000), new File(["x"], "notes.txt", { type: "text/plain" }));
    expect(screen.getByRole("alert").textContent).toBe("notes.txt : type refusé");
    expect(screen.getAllByText("En attente")).toHaveLength(2);
    // Other statuses keep their English words: a partial `status` is merged.
    fireEvent.click(screen.getByRole("button", { name: "Envoyer 2 fichiers" }));
    expect(client.tasks).toHaveLength(2);
    act(() => client.tasks[0]!.progress(2_600));
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(live.textContent?.replace(/\s/g, " ")).toBe("cat.png : 52 %");
    expect(screen.getAllByRole("button", { name: "Suspendre cat.png" })).toHaveLength(2);
    expect(document.querySelector('li[data-name="cat.png"]')?.textContent).toContain("Uploading");
  });
});

/** A page with a button that opens the modal uploader. */
function ModalPage() {
  const [open, setOpen] = useState(false);
  return (
    <TroveProvider client={fakeUploadClient()} resume={false}>
      <button type="button" onClick={() => setOpen(true)}>
        Add files
      </button>
      <TroveUploaderModal
        open={open}
        onClose={() => setOpen(false)}
        strings={{ modalTitle: "Your photos" }}
      />
    </TroveProvider>
  );
}

describe("<TroveUploaderModal>", () => {
  it("opens as a modal dialog named by its title, closes on Escape and gives focus back to the opener", () => {
    render(<ModalPage />);
    const opener = screen.getByRole("button", { name: "Add files" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = document.querySelector("dialog")!;
    expect(dialog.open).toBe(true);
    expect(screen.getByRole("dialog", { name: "Your photos" })).toBe(dialog);
    (screen.getByLabelText(/Drop files here/, { selector: "input" }) as HTMLInputElement).focus();
    act(() => void dialog.dispatchEvent(new Event("cancel", { cancelable: true })));
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(opener);
    fireEvent.click(opener);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(opener);
  });
});
