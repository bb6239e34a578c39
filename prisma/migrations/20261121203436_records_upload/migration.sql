-- AlterTable
ALTER TABLE "audio_records" ADD COLUMN     "channels" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "codec" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "uploadId" TEXT;

-- AlterTable
ALTER TABLE "transcription_tasks" ADD COLUMN     "quotaDay" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "audio_records_userId_uploadId_key" ON "audio_records"("userId", "uploadId");
