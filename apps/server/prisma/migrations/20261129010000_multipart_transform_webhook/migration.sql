-- AlterTable
ALTER TABLE "multipart_sessions" ADD COLUMN     "transform" TEXT,
ADD COLUMN     "webhook_url" TEXT;
