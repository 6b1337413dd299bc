import type { Usage } from "@trove/schema";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { BASE_URL, testClient, useMswServer } from "../../../test/support/msw-server.js";
import { InvalidResponseError, PermissionDeniedError } from "../errors.js";

const server = useMswServer();

const usage: Usage = {
  files: 12,
  storage_bytes: 9_900_000,
  max_files: null,
  max_storage_bytes: 10_000_000,
  days: [{ date: "2026-11-29", requests: 5, bytes_served: 6170, renders: 1 }],
};

describe("usage", () => {
  it("get sends days with the key and returns the data", async () => {
    let seen: Request | undefined;
    server.use(
      http.get(`${BASE_URL}/api/v1/usage`, ({ request }) => {
        seen = request;
        return HttpResponse.json({ success: true, data: usage });
      }),
    );
    expect(await testClient().usage.get({ days: 1 })).toEqual(usage);
    expect(new URL(seen?.url ?? "").searchParams.get("days")).toBe("1");
    expect(seen?.headers.get("x-api-key")).toBe("trove_sk_test");
  });

  it("without days sends no query (the server's 30)", async () => {
    let seen: Request | undefined;
    server.use(
      http.get(`${BASE_URL}/api/v1/usage`, ({ request }) => {
        seen = request;
        return HttpResponse.json({ success: true, data: usage });
      }),
    );
    await testClient().usage.get();
    expect(new URL(seen?.url ?? "").search).toBe("");
  });

  it("a 403 is a PermissionDeniedError; a body without totals is invalid", async () => {
    const answers = [
      HttpResponse.json(
        { error: "Forbidden", success: false, errorCode: "FORBIDDEN", message: "needs a private key" },
        { status: 403 },
      ),
      HttpResponse.json({ success: true, data: { ...usage, storage_bytes: undefined } }),
    ];
    server.use(http.get(`${BASE_URL}/api/v1/usage`, () => answers.shift()));
    const client = testClient();
    await expect(client.usage.get()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(client.usage.get()).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
