import { Uploader } from "./uploader";

// The API host is read per request, so one build serves any Trove (no NEXT_PUBLIC_ variable needed).
export const dynamic = "force-dynamic";

export default function UploadPage() {
  return (
    <>
      <h1>Upload images</h1>
      <Uploader baseUrl={process.env.TROVE_BASE_URL ?? "http://127.0.0.1:3000"} />
    </>
  );
}
