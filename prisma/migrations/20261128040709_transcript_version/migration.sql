-- AlterTable
ALTER TABLE "transcripts" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;
