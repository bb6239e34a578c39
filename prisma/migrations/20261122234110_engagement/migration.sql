-- AlterTable
ALTER TABLE "gift_codes" ADD COLUMN     "batch" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "shop_purchases" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "goodsId" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "coinCost" INTEGER NOT NULL,
    "seconds" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shop_purchases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "shop_purchases_userId_createdAt_idx" ON "shop_purchases"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "shop_purchases" ADD CONSTRAINT "shop_purchases_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Spend and grant amounts of the shop are positive.
ALTER TABLE "shop_purchases" ADD CONSTRAINT "shop_purchases_positive_check" CHECK ("amount" > 0 AND "coinCost" > 0 AND "seconds" > 0);

-- The seeded welcome message in English (installs seeded before messages had an English text).
UPDATE "notifications" SET "notifyTitleEn" = 'Welcome to Yuelu',
  "notifyTextEn" = 'Welcome to Yuelu! Upload or record audio and video to turn it into text, turn text into speech and manage your voices. New users get 3 hours of transcription time. Enjoy!'
WHERE "notifyId" = 1 AND "notifyTitleEn" = '';
