import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "@trove/react/styles.css";
import "./style.css";

export const metadata: Metadata = { title: "Trove + Next.js" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header>
          <nav aria-label="Main">
            <Link href="/">Trove + Next.js</Link> <Link href="/upload">Upload</Link>{" "}
            <Link href="/gallery">Gallery</Link>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
