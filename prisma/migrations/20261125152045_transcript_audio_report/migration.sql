-- AlterTable
ALTER TABLE "transcripts" ADD COLUMN     "audioReport" JSONB;
