-- AlterTable
ALTER TABLE "users" ADD COLUMN     "rememberVoices" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "people" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "centroid" DOUBLE PRECISION[],
    "speechMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "people_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "speaker_prints" (
    "id" SERIAL NOT NULL,
    "fileId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "speaker" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "vector" DOUBLE PRECISION[],
    "speechMs" INTEGER NOT NULL,
    "personId" INTEGER,
    "suggested" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "speaker_prints_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "people_userId_name_key" ON "people"("userId", "name");

-- CreateIndex
CREATE INDEX "speaker_prints_personId_idx" ON "speaker_prints"("personId");

-- CreateIndex
CREATE INDEX "speaker_prints_userId_idx" ON "speaker_prints"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "speaker_prints_fileId_speaker_key" ON "speaker_prints"("fileId", "speaker");

-- AddForeignKey
ALTER TABLE "people" ADD CONSTRAINT "people_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "speaker_prints" ADD CONSTRAINT "speaker_prints_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "speaker_prints" ADD CONSTRAINT "speaker_prints_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "speaker_prints" ADD CONSTRAINT "speaker_prints_personId_fkey" FOREIGN KEY ("personId") REFERENCES "people"("id") ON DELETE SET NULL ON UPDATE CASCADE;
