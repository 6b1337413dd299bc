/**
 * What delivery reads of a file row, for a stored file and for the variants of one; a source's
 * cached original is given the same shape (./origin-delivery.ts).
 */

/** A stored file's variants and the file itself may be cached by anyone for a year. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=31536000, immutable";

export const DELIVERY_FILE_SELECT = {
  id: true,
  workspaceId: true,
  path: true,
  storageKey: true,
  thumbnailKey: true,
  format: true,
  mimeType: true,
  hash: true,
  isActive: true,
  isDelete: true,
  isPrivate: true,
  updatedAt: true,
  expiresAt: true,
} as const;

export interface DeliveryFile {
  id: string;
  workspaceId: string;
  path: string;
  storageKey: string;
  thumbnailKey: string | null;
  format: string;
  mimeType: string;
  hash: string;
  isActive: boolean;
  isDelete: boolean;
  isPrivate: boolean;
  updatedAt: Date;
  /** A temporary file's deadline (null or absent: it stays); ./access-check.ts reads it. */
  expiresAt?: Date | null;
}
