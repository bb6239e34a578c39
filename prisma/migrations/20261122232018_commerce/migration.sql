-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "notifyTextEn" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "notifyTitleEn" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "sourceRef" TEXT;

-- AlterTable: money becomes integer fen (existing amounts converted exactly)
ALTER TABLE "orders" ADD COLUMN "amountFen" INTEGER;
UPDATE "orders" SET "amountFen" = ROUND("amount" * 100)::INTEGER;
ALTER TABLE "orders" ALTER COLUMN "amountFen" SET NOT NULL;
ALTER TABLE "orders" DROP COLUMN "amount",
ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "closeReason" TEXT,
ADD COLUMN     "closedAt" TIMESTAMP(3),
ADD COLUMN     "payUrl" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "provider" TEXT NOT NULL DEFAULT 'mock-alipay',
ADD COLUMN     "queriedAt" TIMESTAMP(3),
ADD COLUMN     "scannedAt" TIMESTAMP(3);

-- AlterTable: prices become integer fen (existing prices converted exactly)
ALTER TABLE "pay_goods" ADD COLUMN "priceFen" INTEGER, ADD COLUMN "originalPriceFen" INTEGER,
ADD COLUMN     "showSaved" BOOLEAN NOT NULL DEFAULT false;
UPDATE "pay_goods" SET "priceFen" = ROUND("price" * 100)::INTEGER, "originalPriceFen" = ROUND("originalPrice" * 100)::INTEGER;
-- the annual plan shows its '¥78 saved' corner (spec §3, §9)
UPDATE "pay_goods" SET "showSaved" = true WHERE "goodsId" = 9;
ALTER TABLE "pay_goods" ALTER COLUMN "priceFen" SET NOT NULL, ALTER COLUMN "originalPriceFen" SET NOT NULL;
ALTER TABLE "pay_goods" DROP COLUMN "originalPrice", DROP COLUMN "price";

-- AlterTable
ALTER TABLE "payment_notifications" DROP COLUMN "verified",
ADD COLUMN     "tradeStatus" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payment_notifications" ALTER COLUMN "tradeStatus" DROP DEFAULT;

-- CreateTable
CREATE TABLE "mock_alipay_trades" (
    "outTradeNo" TEXT NOT NULL,
    "tradeNo" TEXT NOT NULL,
    "appId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "totalAmount" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'WAIT_SCAN',
    "notifyUrl" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "scannedAt" TIMESTAMP(3),
    "paidAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "notifyAttempts" INTEGER NOT NULL DEFAULT 0,
    "nextNotifyAt" TIMESTAMP(3),
    "notifiedAt" TIMESTAMP(3),

    CONSTRAINT "mock_alipay_trades_pkey" PRIMARY KEY ("outTradeNo")
);

-- CreateIndex
CREATE UNIQUE INDEX "mock_alipay_trades_tradeNo_key" ON "mock_alipay_trades"("tradeNo");

-- CreateIndex
CREATE INDEX "mock_alipay_trades_status_nextNotifyAt_idx" ON "mock_alipay_trades"("status", "nextNotifyAt");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_userId_sourceRef_key" ON "notifications"("userId", "sourceRef");

-- CreateIndex
CREATE INDEX "orders_tradeStatus_expiresAt_idx" ON "orders"("tradeStatus", "expiresAt");

-- Money is never negative, an order is never free, and a trade status is one of the five.
ALTER TABLE "pay_goods" ADD CONSTRAINT "pay_goods_price_check" CHECK ("priceFen" > 0 AND "originalPriceFen" >= "priceFen");
ALTER TABLE "orders" ADD CONSTRAINT "orders_amount_check" CHECK ("amountFen" > 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_trade_status_check" CHECK ("tradeStatus" IN (-1, 0, 1, 2, 3));
