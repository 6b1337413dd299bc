-- CreateEnum
CREATE TYPE "multipart_mode" AS ENUM ('gateway', 'direct');

-- AlterTable
ALTER TABLE "multipart_parts" ADD COLUMN     "block_digests" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "multipart_sessions" ADD COLUMN     "mode" "multipart_mode" NOT NULL DEFAULT 'gateway';
