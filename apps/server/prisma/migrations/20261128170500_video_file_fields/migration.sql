-- AlterTable
ALTER TABLE "files" ADD COLUMN     "audio_codec" TEXT,
ADD COLUMN     "duration" DOUBLE PRECISION,
ADD COLUMN     "video_codec" TEXT;
