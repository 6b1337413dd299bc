import { TroveUploader, TroveUploaderModal, type TroveUploaderProps, type UploadResult } from "@trove/react";
import { useState } from "react";

/**
 * The page's upload UI: the inline uploader, taking files dropped anywhere on the page or pasted,
 * and the same uploader in a dialog for pages that keep it out of the way, where images can be
 * cropped and rotated before they go (files there wait for "Upload") and are scaled down to fit
 * 2560 px in the browser. Both put what they upload in the "react-example" folder.
 */
export function UploadPanel({ onComplete }: { onComplete: (file: UploadResult) => void }) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const shared: TroveUploaderProps = {
    options: { folder: "react-example" },
    // Decimal, as the uploader prints sizes: "100 MB" means 100,000,000 bytes.
    maxSize: 100_000_000,
    onComplete,
  };
  return (
    <>
      <TroveUploader
        {...shared}
        dropTarget="page"
        hint="Any file up to 100 MB, dropped anywhere on this page or pasted; files over 8.4 MB go up in parts and can pause"
      />
      <p>
        <button type="button" className="open-dialog" onClick={() => setDialogOpen(true)}>
          Upload in a dialog
        </button>
      </p>
      <TroveUploaderModal
        {...shared}
        editor
        resize={{ maxWidth: 2560, maxHeight: 2560, quality: 0.9 }}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
      />
    </>
  );
}
