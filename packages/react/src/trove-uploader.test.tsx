// @vitest-environment happy-dom

import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ValidationError } from "@trove/sdk/upload";
import { afterEach, describe, expect, it } from "vitest";
import { fakeUploadClient } from "../test/support/fake-upload-client.js";
import { TroveProvider } from "./trove-provider.js";
import { TroveUploader } from "./trove-uploader.js";

afterEach(cleanup);

function renderUploader(props: Parameters<typeof TroveUploader>[0] = {}) {
  const client = fakeUploadClient();
  render(
    <TroveProvider client={client} resume={false}>
      <TroveUploader {...props} />
    </TroveProvider>,
  );
  const input = screen.getByLabelText(/Drop files here/, { selector: "input" }) as HTMLInputElement;
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
    expect(alert.textContent).toContain("cat.png is 2.0 KB: the limit is 1.0 KB");
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
