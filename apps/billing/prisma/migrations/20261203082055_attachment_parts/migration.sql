-- Files in parts (attachment_parts, written and read a part at a time) and pending files (an export writes its parts
-- before its call commits; the call marks the file ready). Existing files keep their bytes in attachments.content,
-- read as their one part: no rewrite of the table, and every metadata-only ALTER below is instant.
-- CreateEnum
CREATE TYPE "AttachmentStatus" AS ENUM ('pending', 'ready');

-- AlterTable
ALTER TABLE "attachments" ADD COLUMN     "status" "AttachmentStatus" NOT NULL DEFAULT 'ready',
ALTER COLUMN "content" DROP NOT NULL;

-- CreateTable
CREATE TABLE "attachment_parts" (
    "attachment_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "attachment_parts_pkey" PRIMARY KEY ("attachment_id","seq")
);

-- CreateIndex
CREATE INDEX "attachments_status_created_at_idx" ON "attachments"("status", "created_at");

-- AddForeignKey
ALTER TABLE "attachment_parts" ADD CONSTRAINT "attachment_parts_attachment_id_fkey" FOREIGN KEY ("attachment_id") REFERENCES "attachments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

