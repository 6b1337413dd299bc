import type { MultipartSession } from "@trove/schema";
import { HttpResponse, http } from "msw";
import type { SetupServer } from "msw/node";
import { multipartComplete, multipartSession } from "./fixtures.js";
import { BASE_URL, STORAGE_URL } from "./msw-server.js";

export interface FakeMultipartOptions {
  size: number;
  partSize: number;
  session?: Partial<MultipartSession>;
  /** Answer a PUT yourself (return a Response), or return undefined to store the part. */
  onPart?: (index: number, request: Request) => Promise<Response | undefined> | Response | undefined;
}

/** Multipart start, part storage, complete and abandon (DELETE), recording what the client did. */
export function fakeMultipart(server: SetupServer, options: FakeMultipartOptions) {
  const count = Math.ceil(options.size / options.partSize);
  const session = multipartSession(count, options.partSize, options.session);
  const state = {
    session,
    starts: [] as unknown[],
    completes: [] as unknown[],
    /** Sessions abandoned with DELETE, with the key each was sent with. */
    abandons: [] as { sessionId: string; key: string | null }[],
    /** Part indexes in the order their PUT arrived (retries included). */
    puts: [] as number[],
    stored: new Map<number, Uint8Array>(),
    inFlight: 0,
    maxInFlight: 0,
    putHeaders: [] as Headers[],
    assembled(): Uint8Array {
      const out = new Uint8Array(options.size);
      for (const [index, bytes] of state.stored) out.set(bytes, index * options.partSize);
      return out;
    },
  };
  server.use(
    http.post(`${BASE_URL}/api/v1/multipart/start`, async ({ request }) => {
      state.starts.push(await request.json());
      return HttpResponse.json(session);
    }),
    http.put(`${STORAGE_URL}/parts/:session/:part`, async ({ request, params }) => {
      const index = Number(params.part) - 1;
      state.puts.push(index);
      state.putHeaders.push(request.headers);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      try {
        const custom = await options.onPart?.(index, request);
        if (custom) return custom;
        const bytes = new Uint8Array(await request.arrayBuffer());
        state.stored.set(index, bytes);
        return HttpResponse.json(
          { success: true, part_number: index + 1, size: bytes.byteLength, etag: `"e${index}"` },
          { headers: { etag: `"e${index}"` } },
        );
      } finally {
        state.inFlight--;
      }
    }),
    http.post(`${BASE_URL}/api/v1/multipart/complete`, async ({ request }) => {
      state.completes.push(await request.json());
      return HttpResponse.json(multipartComplete(options.size));
    }),
    http.delete(`${BASE_URL}/api/v1/multipart/:session`, ({ request, params }) => {
      state.abandons.push({ sessionId: String(params.session), key: request.headers.get("x-api-key") });
      return HttpResponse.json({ success: true });
    }),
  );
  return state;
}

/** Deterministic, position-dependent bytes: a misplaced part changes the assembled result. */
export function patternBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

export function memorySessionStore() {
  const entries = new Map<string, unknown>();
  return {
    entries,
    get: async (key: string) => structuredClone(entries.get(key)) as never,
    set: async (key: string, value: unknown) => {
      entries.set(key, structuredClone(value));
    },
    delete: async (key: string) => {
      entries.delete(key);
    },
    list: async () => [...entries].map(([key, value]) => [key, structuredClone(value)]) as never,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
