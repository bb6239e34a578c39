-- AlterTable
ALTER TABLE "tts_tasks" DROP COLUMN "kind",
DROP COLUMN "voice",
ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "chars" INTEGER NOT NULL,
ADD COLUMN     "charsCharged" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "durationMs" INTEGER,
ADD COLUMN     "engine" TEXT NOT NULL,
ADD COLUMN     "errorCode" INTEGER,
ADD COLUMN     "errorReason" TEXT,
ADD COLUMN     "fileSize" INTEGER,
ADD COLUMN     "format" TEXT NOT NULL DEFAULT 'mp3',
ADD COLUMN     "language" TEXT NOT NULL,
ADD COLUMN     "promptId" INTEGER,
ADD COLUMN     "quotaDay" TEXT,
ADD COLUMN     "refundedAt" TIMESTAMP(3),
ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "title" TEXT NOT NULL,
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL,
ADD COLUMN     "voiceName" TEXT NOT NULL,
ADD COLUMN     "voiceNameEn" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "voiceParams" JSONB NOT NULL,
ADD COLUMN     "volume" DOUBLE PRECISION NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "voice_library" DROP COLUMN "audioUrl",
DROP COLUMN "engineVoice",
DROP COLUMN "tags",
ADD COLUMN     "ageGroup" TEXT NOT NULL,
ADD COLUMN     "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "engine" TEXT NOT NULL,
ADD COLUMN     "params" JSONB NOT NULL,
ADD COLUMN     "sampleText" TEXT NOT NULL,
ADD COLUMN     "slug" TEXT NOT NULL,
ADD COLUMN     "style" TEXT NOT NULL,
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL;

-- CreateTable
CREATE TABLE "tts_quota_days" (
    "userId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "charsUsed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "tts_quota_days_pkey" PRIMARY KEY ("userId","day")
);

-- CreateIndex
CREATE INDEX "tts_tasks_status_idx" ON "tts_tasks"("status");

-- CreateIndex
CREATE UNIQUE INDEX "voice_library_slug_key" ON "voice_library"("slug");

-- CreateIndex
CREATE INDEX "voice_library_enabled_language_sort_idx" ON "voice_library"("enabled", "language", "sort");

-- AddForeignKey
ALTER TABLE "tts_tasks" ADD CONSTRAINT "tts_tasks_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "voice_library"("promptId") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tts_quota_days" ADD CONSTRAINT "tts_quota_days_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
