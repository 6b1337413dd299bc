// A server component: it lists the folder with the private key on the server (the key and the
// client never reach the page) and renders each file with next/image, whose loader
// (trove-loader.ts) asks Trove's delivery host for each width the browser needs.
import Image from "next/image";
import { troveServerClient, UPLOAD_FOLDER } from "../../lib/trove-server";

// Listed per request: a build has no key and the folder changes with every upload.
export const dynamic = "force-dynamic";

export default async function GalleryPage() {
  // The token route's policy stores only images, and only in this folder.
  const { files: images } = await troveServerClient().files.list({
    path: UPLOAD_FOLDER,
    sort: "created_at_desc",
    limit: 50,
  });
  return (
    <>
      <h1>Gallery</h1>
      {images.length === 0 ? (
        <p>No images yet: upload some first.</p>
      ) : (
        <ul className="gallery">
          {images.map((file) => (
            <li key={file.file_no}>
              <figure>
                <Image
                  src={file.url}
                  alt={file.name}
                  width={file.width ?? 400}
                  height={file.height ?? 300}
                  sizes="(max-width: 600px) 100vw, 200px"
                />
                <figcaption>{file.name}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
