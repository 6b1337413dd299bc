import { createUploadClient } from "@trove/sdk/node";
import type { UploadTokenResponse } from "@trove/sdk/token-route";
import { gradientPng } from "./png.js";

/** The token route's answer read as a page reads it, checked to be a token answer. */
export async function tokenAnswer(response: Response): Promise<UploadTokenResponse> {
  const body = (await response.json()) as UploadTokenResponse;
  if (response.status !== 200 || !body.token?.startsWith("trove_ut_"))
    throw new Error(`not a token answer: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Uploads a PNG with a token, as a page would: proves that the token the route minted works. */
export function uploadWithToken(baseUrl: string, token: string, fileName = "pixel.png") {
  return createUploadClient({ baseUrl, token }).upload(gradientPng(8, 8), {
    fileName,
    contentType: "image/png",
  });
}
