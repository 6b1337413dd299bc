import { describe, expect, it } from "vitest";
import {
  MAX_TTL_SECONDS,
  multipartCompleteBodySchema,
  multipartCompleteResponseSchema,
  multipartSessionSchema,
  multipartStartBodySchema,
  partUploadParamsSchema,
  partUploadResponseSchema,
} from "./multipart.js";

const startBody = {
  file_name: "movie.mp4",
  size: 52_428_800,
  format: "video/mp4",
  folder: "videos",
  tags: ["film"],
  metadata: { duration: 120 },
  custom_id: "clip-7",
  random_prefix: true,
  ttl_seconds: 3600,
};

describe("multipart start (endpoint 3)", () => {
  it("accepts the documented body and the minimal one", () => {
    expect(multipartStartBodySchema.parse(startBody)).toEqual(startBody);
    expect(
      multipartStartBodySchema.safeParse({ file_name: "a.bin", size: 1, format: "application/octet-stream" })
        .success,
    ).toBe(true);
  });

  it("size is an integer of at least 1", () => {
    for (const size of [0, -5, 1.5, "100"]) {
      expect(multipartStartBodySchema.safeParse({ ...startBody, size }).success, String(size)).toBe(false);
    }
  });

  it("file_name is non-empty and format is required", () => {
    expect(multipartStartBodySchema.safeParse({ ...startBody, file_name: "" }).success).toBe(false);
    const { format: _format, ...withoutFormat } = startBody;
    expect(multipartStartBodySchema.safeParse(withoutFormat).success).toBe(false);
  });

  it("ttl_seconds is an integer of at least 1, at most 7 days", () => {
    expect(multipartStartBodySchema.safeParse({ ...startBody, ttl_seconds: 1 }).success).toBe(true);
    expect(multipartStartBodySchema.safeParse({ ...startBody, ttl_seconds: MAX_TTL_SECONDS }).success).toBe(
      true,
    );
    for (const ttl of [0, 2.5, MAX_TTL_SECONDS + 1]) {
      expect(
        multipartStartBodySchema.safeParse({ ...startBody, ttl_seconds: ttl }).success,
        String(ttl),
      ).toBe(false);
    }
  });

  it("random_prefix is a JSON boolean here, and tags an array", () => {
    expect(multipartStartBodySchema.safeParse({ ...startBody, random_prefix: "true" }).success).toBe(false);
    expect(multipartStartBodySchema.safeParse({ ...startBody, tags: "film" }).success).toBe(false);
  });

  it("takes direct upload's transform and webhook_url, checked by the same rules", () => {
    const body = { ...startBody, transform: "w_50,f_webp", webhook_url: "https://hooks.example.com/trove" };
    expect(multipartStartBodySchema.parse(body)).toEqual(body);
    const transform = multipartStartBodySchema.safeParse({ ...startBody, transform: "q_200" });
    expect(transform.error?.issues[0]?.path).toEqual(["transform"]);
    for (const webhook_url of [
      "ftp://hooks.example.com/x",
      "not a url",
      `https://a.example/${"x".repeat(2048)}`,
    ]) {
      const parsed = multipartStartBodySchema.safeParse({ ...startBody, webhook_url });
      expect(parsed.error?.issues[0]?.path, webhook_url.slice(0, 30)).toEqual(["webhook_url"]);
    }
  });
});

describe("multipart session and complete", () => {
  const session = {
    session_id: "mps_3f9a2c",
    part_size: 8_388_608,
    parts: [
      "http://localhost:3000/api/v1/multipart/parts/mps_3f9a2c/1?expires=1714561200&signature=ab12",
      "http://localhost:3000/api/v1/multipart/parts/mps_3f9a2c/2?expires=1714561200&signature=cd34",
    ],
    expires_at: 1_714_561_200,
  };

  it("accepts a session and rejects one without parts", () => {
    expect(multipartSessionSchema.parse(session)).toEqual(session);
    expect(multipartSessionSchema.safeParse({ ...session, parts: [] }).success).toBe(false);
    expect(multipartSessionSchema.safeParse({ ...session, part_size: 0 }).success).toBe(false);
  });

  it("complete body needs a session_id", () => {
    expect(multipartCompleteBodySchema.safeParse({ session_id: "mps_3f9a2c" }).success).toBe(true);
    expect(multipartCompleteBodySchema.safeParse({ session_id: "" }).success).toBe(false);
    expect(multipartCompleteBodySchema.safeParse({}).success).toBe(false);
  });

  it("accepts the complete result, with null dimensions for a video", () => {
    const complete = {
      success: true,
      data: {
        id: "9b2f4c1e-7d3a-4e8b-a1c2-3d4e5f6a7b8c",
        file_no: "1030",
        name: "movie.mp4",
        url: "http://localhost:3001/ws7Kp2/videos/movie.mp4",
        path: "videos/movie.mp4",
        width: null,
        height: null,
        format: "mp4",
        file_size: 52_428_800,
        workspace_no: "ws7Kp2",
      },
    };
    expect(multipartCompleteResponseSchema.parse(complete)).toEqual(complete);
    expect(
      multipartCompleteResponseSchema.safeParse({ ...complete, data: { ...complete.data, file_size: "1" } })
        .success,
    ).toBe(false);
  });

  it("part upload: params from the gateway path, and the gateway's answer", () => {
    expect(partUploadParamsSchema.parse({ sessionId: "mps_3f9a2c", partNumber: "2" })).toEqual({
      sessionId: "mps_3f9a2c",
      partNumber: 2,
    });
    expect(partUploadParamsSchema.safeParse({ sessionId: "mps_3f9a2c", partNumber: "0" }).success).toBe(
      false,
    );
    expect(
      partUploadResponseSchema.safeParse({ success: true, part_number: 2, size: 1024, etag: '"abc"' })
        .success,
    ).toBe(true);
  });
});
