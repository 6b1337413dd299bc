/**
 * The bodies the upload endpoints exchange, as plain interfaces. The zod schemas in uploads.ts and
 * multipart.ts validate them; these are what their types are, written out so that the SDK's
 * upload entry declares them without zod (its types load in a fraction of the time).
 * upload-wire-types.test.ts proves each equals its schema's inferred type.
 */

/** An image's placeholder (Trove's addition; placeholder.ts says what each field is). */
export interface FilePlaceholder {
  thumbhash: string;
  color: string;
  data_url: string;
}

/** The flat upload response (direct and remote-URL upload). */
export interface UploadResponse {
  id: string;
  file_no: string;
  workspace_id: string;
  name: string;
  path: string;
  url: string;
  width: number | null;
  height: number | null;
  size: number;
  mime_type: string;
  tags: string[];
  metadata: Record<string, unknown>;
  custom_id: string | null;
  folder_no: string | null;
  is_duplicate: boolean;
  created_at: string;
  upload_source: string;
  thumbnail: string | null;
  extension: string;
  format: string;
  hash: string;
  is_private: boolean;
  /** When a temporary file is deleted (Trove's addition); null for a file that stays. */
  expires_at?: string | null | undefined;
  /** The image's placeholder (Trove's addition): usually null until computed, just after the upload. */
  placeholder?: FilePlaceholder | null | undefined;
  /** A video's duration in seconds and codecs (Trove's addition, files.ts `videoFileFields`); else null. */
  duration?: number | null | undefined;
  video_codec?: string | null | undefined;
  audio_codec?: string | null | undefined;
}

/** Trove's default success body: the flat record wrapped, with `file_size` and `workspace_no`. */
export interface WrappedUploadResponse {
  success: true;
  data: WrappedUploadData;
}

/** `data` of the wrapped body: every flat field, plus the hosted service's names for two. */
export interface WrappedUploadData extends UploadResponse {
  file_size: number;
  workspace_no: string;
}

/** The wrapped body as the hosted service documents its minimum. */
export interface UploadEnvelopeResponse {
  success: true;
  data: {
    file_no: string;
    name: string;
    url: string;
    path: string;
    width?: number | null | undefined;
    height?: number | null | undefined;
    format: string;
    file_size: number;
    workspace_no?: string | undefined;
  };
}

/** Any documented success body of direct and remote upload. */
export type AnyUploadResponse = UploadResponse | WrappedUploadResponse | UploadEnvelopeResponse;

/** Endpoint 3's body as a caller writes it. */
export interface MultipartStartBodyInput {
  file_name: string;
  size: number;
  format: string;
  folder?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  custom_id?: string | undefined;
  random_prefix?: boolean | undefined;
  is_private?: boolean | undefined;
  ttl_seconds?: number | undefined;
  expires_in?: number | undefined;
  /** See EMBEDDED_METADATA_MODES (embedded-metadata.ts); spelled out here to stay zod-free. */
  embedded_metadata?: "strip" | "strip-location" | "keep" | undefined;
  transform?: string | undefined;
  webhook_url?: string | undefined;
}

/** The multipart session; `expires_at` is Unix seconds. */
export interface MultipartSession {
  session_id: string;
  part_size: number;
  parts: string[];
  expires_at: number;
}

export interface MultipartCompleteResult {
  id: string;
  file_no: string;
  name: string;
  url: string;
  path: string;
  width: number | null;
  height: number | null;
  format: string;
  file_size: number;
  workspace_no: string;
  /** When a temporary file is deleted (Trove's addition); null for a file that stays. */
  expires_at?: string | null | undefined;
  /** The image's placeholder (Trove's addition): usually null until computed, just after the upload. */
  placeholder?: FilePlaceholder | null | undefined;
}

export interface MultipartCompleteResponse {
  success: true;
  data: MultipartCompleteResult;
}
