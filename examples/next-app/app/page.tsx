import Link from "next/link";

export default function Home() {
  return (
    <>
      <h1>Trove + Next.js</h1>
      <p>
        <Link href="/upload">Upload images</Link> through an upload token minted by this app's route handler
        (the private key stays on the server), then see them in the <Link href="/gallery">gallery</Link>,
        sized by Trove for each screen through the <code>next/image</code> loader.
      </p>
    </>
  );
}
