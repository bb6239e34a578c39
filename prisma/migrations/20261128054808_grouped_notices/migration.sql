-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "items" JSONB;

-- The seeded welcome broadcast (notifyId 1) was dated at install time, before anyone who signed up
-- later: each account's own welcome message (sent at sign-up, dated then) now says what it said.
-- An operator's edited copy (another title) is kept.
DELETE FROM "notifications"
WHERE "notifyId" = 1 AND "userId" IS NULL AND "sourceRef" IS NULL AND "notifyTitle" = '欢迎使用悦录';
