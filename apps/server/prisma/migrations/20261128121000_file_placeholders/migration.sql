-- AlterTable
ALTER TABLE "files" ADD COLUMN     "placeholder_attempts" SMALLINT,
ADD COLUMN     "placeholder_color" CHAR(7),
ADD COLUMN     "placeholder_data_url" TEXT,
ADD COLUMN     "placeholder_thumbhash" VARCHAR(64);

-- The placeholder sweep (src/placeholders/placeholder-sweep.ts) reads the pending files oldest
-- first; only pending ones are indexed, so the index is empty in the steady state. Prisma cannot
-- declare a partial index: it lives here only.
CREATE INDEX "files_placeholder_pending_idx" ON "files"("file_no") WHERE "placeholder_attempts" IS NOT NULL;

-- Images stored before this migration get their placeholder too (the sweep works through them):
-- every raster image whose header was read has a thumbnail key (src/uploads/process-uploaded-image.ts).
UPDATE "files" SET "placeholder_attempts" = 0 WHERE "thumbnail_key" IS NOT NULL;
