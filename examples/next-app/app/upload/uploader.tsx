"use client";
// The page's half: no key at all. Each file gets its own token from /api/upload-token
// (app/api/upload-token/route.ts), which answers { token, expires_at, max_files, policy }.
import { TroveProvider, TroveUploader } from "@trove/react";
import Link from "next/link";
import { useState } from "react";

async function fetchToken(): Promise<string> {
  const response = await fetch("/api/upload-token", { method: "POST" });
  const body = (await response.json()) as { token?: string; message?: string };
  if (!response.ok || !body.token) throw new Error(body.message ?? `token route answered ${response.status}`);
  return body.token;
}

export function Uploader({ baseUrl }: { baseUrl: string }) {
  const [done, setDone] = useState(0);
  return (
    <TroveProvider baseUrl={baseUrl} token={fetchToken}>
      <TroveUploader
        accept="image/*"
        maxSize={10 * 1024 * 1024}
        hint="Images up to 10 MB"
        onComplete={() => setDone((count) => count + 1)}
      />
      {done > 0 && (
        <p role="status">
          {done} uploaded. <Link href="/gallery">See the gallery</Link>
        </p>
      )}
    </TroveProvider>
  );
}
