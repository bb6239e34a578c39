-- AlterTable
ALTER TABLE "worker_heartbeats" ADD COLUMN     "tools" JSONB NOT NULL DEFAULT '[]';
