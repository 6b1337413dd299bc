-- AlterTable
ALTER TABLE "multipart_sessions" ADD COLUMN     "is_private" BOOLEAN NOT NULL DEFAULT false;
