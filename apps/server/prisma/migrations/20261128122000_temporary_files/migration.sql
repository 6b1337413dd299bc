-- AlterTable
ALTER TABLE "files" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "multipart_sessions" ADD COLUMN     "file_expires_in" INTEGER;

-- The expiry sweep (src/files/expire-files.ts) reads the oldest deadlines first; only temporary
-- files are indexed, so the index costs nothing for files that stay. Prisma cannot declare a
-- partial index: it lives here only.
CREATE INDEX "files_expires_at_idx" ON "files"("expires_at") WHERE "expires_at" IS NOT NULL;
