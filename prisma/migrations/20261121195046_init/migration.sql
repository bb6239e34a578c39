-- CreateEnum
CREATE TYPE "TimeCardSource" AS ENUM ('purchase', 'redeem', 'gift', 'task', 'welcome', 'checkin');

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "phone" TEXT,
    "passwordHash" TEXT,
    "nickName" TEXT NOT NULL,
    "userPhoto" TEXT NOT NULL DEFAULT '',
    "memberEffectiveTime" TIMESTAMP(3),
    "infoCollectIdentity" TEXT,
    "infoCollectChannel" TEXT,
    "beanBalance" INTEGER NOT NULL DEFAULT 0,
    "lastLoginAt" TIMESTAMP(3),
    "deleteRequestedAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "ip" TEXT NOT NULL DEFAULT '',
    "userAgent" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms_codes" (
    "id" SERIAL NOT NULL,
    "phone" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "ip" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sms_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "virtual_visitors" (
    "tempCode" TEXT NOT NULL,
    "ip" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "virtual_visitors_pkey" PRIMARY KEY ("tempCode")
);

-- CreateTable
CREATE TABLE "welcome_gifts" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "shownAt" TIMESTAMP(3),

    CONSTRAINT "welcome_gifts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bean_ledger" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "refId" TEXT NOT NULL,
    "balanceAfter" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bean_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "time_cards" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "seconds" INTEGER NOT NULL,
    "remaining" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "source" "TimeCardSource" NOT NULL,
    "refId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "time_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pay_goods" (
    "goodsId" INTEGER NOT NULL,
    "goodsName" TEXT NOT NULL,
    "goodsNameEn" TEXT NOT NULL,
    "price" DECIMAL(10,2) NOT NULL,
    "originalPrice" DECIMAL(10,2) NOT NULL,
    "currency" TEXT NOT NULL DEFAULT '¥',
    "goodsType" INTEGER NOT NULL,
    "duration" INTEGER NOT NULL DEFAULT 0,
    "memberDays" INTEGER NOT NULL DEFAULT 0,
    "inShop" BOOLEAN NOT NULL DEFAULT false,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "pay_goods_pkey" PRIMARY KEY ("goodsId")
);

-- CreateTable
CREATE TABLE "shop_goods" (
    "goodsId" INTEGER NOT NULL,
    "goodsName" TEXT NOT NULL,
    "goodsNameEn" TEXT NOT NULL,
    "goodsIntroduce" TEXT NOT NULL,
    "goodsIntroduceEn" TEXT NOT NULL,
    "goodsPicPath" TEXT NOT NULL,
    "duration" INTEGER NOT NULL,
    "effectiveTime" INTEGER NOT NULL,
    "originalCoin" INTEGER NOT NULL,
    "exchangeCoin" INTEGER NOT NULL,
    "discount" BOOLEAN NOT NULL DEFAULT false,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "shop_goods_pkey" PRIMARY KEY ("goodsId")
);

-- CreateTable
CREATE TABLE "orders" (
    "orderNumber" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "goodsId" INTEGER NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "tradeStatus" INTEGER NOT NULL DEFAULT -1,
    "payAgent" TEXT NOT NULL DEFAULT 'alipay',
    "providerTradeNo" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "paidAt" TIMESTAMP(3),
    "grantedAt" TIMESTAMP(3),

    CONSTRAINT "orders_pkey" PRIMARY KEY ("orderNumber")
);

-- CreateTable
CREATE TABLE "payment_notifications" (
    "id" SERIAL NOT NULL,
    "orderNumber" TEXT NOT NULL,
    "notifyId" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL,
    "payload" JSONB NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_rewards" (
    "day" INTEGER NOT NULL,
    "signRewardNumber" INTEGER NOT NULL,
    "signRewardType" INTEGER NOT NULL,
    "rewardPicPath" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "sign_rewards_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "sign_days" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "signRewardNumber" INTEGER NOT NULL,
    "signRewardType" INTEGER NOT NULL,
    "memberTimes" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_days_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "challenge_tasks" (
    "challengeId" INTEGER NOT NULL,
    "challengeName" TEXT NOT NULL,
    "challengeNameEn" TEXT NOT NULL,
    "challengeDesc" TEXT NOT NULL,
    "challengeDescEn" TEXT NOT NULL,
    "challengeType" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "progressFinish" INTEGER NOT NULL,
    "rewardType" INTEGER NOT NULL,
    "rewardNumber" INTEGER NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "challenge_tasks_pkey" PRIMARY KEY ("challengeId")
);

-- CreateTable
CREATE TABLE "task_progress" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "challengeId" INTEGER NOT NULL,
    "period" TEXT NOT NULL,
    "progressAmount" INTEGER NOT NULL DEFAULT 0,
    "claimedAt" TIMESTAMP(3),

    CONSTRAINT "task_progress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gift_codes" (
    "id" SERIAL NOT NULL,
    "packCode" TEXT NOT NULL,
    "rewardType" INTEGER NOT NULL,
    "rewardNumber" INTEGER NOT NULL,
    "maxRedemptions" INTEGER NOT NULL DEFAULT 1,
    "redeemedCount" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gift_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gift_redemptions" (
    "id" SERIAL NOT NULL,
    "giftCodeId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gift_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "notifyId" SERIAL NOT NULL,
    "userId" INTEGER,
    "notifyTitle" TEXT NOT NULL,
    "notifyText" TEXT NOT NULL,
    "senderName" TEXT NOT NULL,
    "sendTime" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("notifyId")
);

-- CreateTable
CREATE TABLE "notification_reads" (
    "userId" INTEGER NOT NULL,
    "notifyId" INTEGER NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_reads_pkey" PRIMARY KEY ("userId","notifyId")
);

-- CreateTable
CREATE TABLE "info_collect_options" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameEn" TEXT NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "info_collect_options_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,

    CONSTRAINT "app_settings_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "banners" (
    "id" SERIAL NOT NULL,
    "image" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "sort" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "banners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "index_links" (
    "id" SERIAL NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameEn" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "index_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activities" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "titleEn" TEXT NOT NULL,
    "image" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "startAt" TIMESTAMP(3) NOT NULL,
    "endAt" TIMESTAMP(3),
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "activities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feedback_categories" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "nameEn" TEXT NOT NULL,
    "parentId" INTEGER NOT NULL DEFAULT 0,
    "level" INTEGER NOT NULL DEFAULT 0,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "feedback_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feedback" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER,
    "categoryId" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "contact" TEXT NOT NULL DEFAULT '',
    "images" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "help_documents" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "titleEn" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "contentEn" TEXT NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "help_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "folders" (
    "menuId" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "menuName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "folders_pkey" PRIMARY KEY ("menuId")
);

-- CreateTable
CREATE TABLE "audio_records" (
    "fileId" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "menuId" INTEGER,
    "fileName" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "fileSize" BIGINT NOT NULL,
    "timeLen" INTEGER NOT NULL,
    "sampleRate" INTEGER NOT NULL DEFAULT 0,
    "storageKey" TEXT NOT NULL,
    "fileStatus" INTEGER NOT NULL DEFAULT 0,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updateTime" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "audio_records_pkey" PRIMARY KEY ("fileId")
);

-- CreateTable
CREATE TABLE "transcripts" (
    "fileId" INTEGER NOT NULL,
    "asrResult" JSONB NOT NULL,
    "language" TEXT NOT NULL,
    "abstracts" TEXT NOT NULL DEFAULT '',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "transcripts_pkey" PRIMARY KEY ("fileId")
);

-- CreateTable
CREATE TABLE "hot_words" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "hot_words_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transcription_tasks" (
    "id" SERIAL NOT NULL,
    "fileId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 3,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "language" TEXT NOT NULL DEFAULT 'auto',
    "speakerCount" INTEGER NOT NULL DEFAULT 0,
    "secondsCharged" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "errorCode" INTEGER,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "refundedAt" TIMESTAMP(3),

    CONSTRAINT "transcription_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "time_card_deductions" (
    "taskId" INTEGER NOT NULL,
    "cardId" INTEGER NOT NULL,
    "seconds" INTEGER NOT NULL,

    CONSTRAINT "time_card_deductions_pkey" PRIMARY KEY ("taskId","cardId")
);

-- CreateTable
CREATE TABLE "quota_days" (
    "userId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "secondsUsed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "quota_days_pkey" PRIMARY KEY ("userId","day")
);

-- CreateTable
CREATE TABLE "voice_library" (
    "promptId" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "nameEn" TEXT NOT NULL,
    "gender" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "engineVoice" TEXT NOT NULL,
    "audioUrl" TEXT NOT NULL DEFAULT '',
    "tags" TEXT[],
    "sort" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "voice_library_pkey" PRIMARY KEY ("promptId")
);

-- CreateTable
CREATE TABLE "user_voices" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "sourceKey" TEXT NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 0,
    "mt" INTEGER NOT NULL DEFAULT 1,
    "mc" TEXT NOT NULL DEFAULT '',
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_voices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tts_tasks" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'tts',
    "text" TEXT NOT NULL,
    "voice" TEXT NOT NULL,
    "speed" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "pitch" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "status" INTEGER NOT NULL DEFAULT 3,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "outputKey" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "tts_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_phone_key" ON "users"("phone");

-- CreateIndex
CREATE INDEX "sessions_userId_idx" ON "sessions"("userId");

-- CreateIndex
CREATE INDEX "sessions_expiresAt_idx" ON "sessions"("expiresAt");

-- CreateIndex
CREATE INDEX "sms_codes_phone_createdAt_idx" ON "sms_codes"("phone", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "welcome_gifts_userId_kind_key" ON "welcome_gifts"("userId", "kind");

-- CreateIndex
CREATE INDEX "bean_ledger_userId_createdAt_idx" ON "bean_ledger"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "bean_ledger_userId_reason_refId_key" ON "bean_ledger"("userId", "reason", "refId");

-- CreateIndex
CREATE INDEX "time_cards_userId_expiresAt_idx" ON "time_cards"("userId", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "time_cards_userId_source_refId_key" ON "time_cards"("userId", "source", "refId");

-- CreateIndex
CREATE INDEX "orders_userId_createdAt_idx" ON "orders"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "payment_notifications_orderNumber_notifyId_key" ON "payment_notifications"("orderNumber", "notifyId");

-- CreateIndex
CREATE UNIQUE INDEX "sign_days_userId_day_key" ON "sign_days"("userId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "task_progress_userId_challengeId_period_key" ON "task_progress"("userId", "challengeId", "period");

-- CreateIndex
CREATE UNIQUE INDEX "gift_codes_packCode_key" ON "gift_codes"("packCode");

-- CreateIndex
CREATE UNIQUE INDEX "gift_redemptions_giftCodeId_userId_key" ON "gift_redemptions"("giftCodeId", "userId");

-- CreateIndex
CREATE INDEX "notifications_userId_sendTime_idx" ON "notifications"("userId", "sendTime");

-- CreateIndex
CREATE UNIQUE INDEX "info_collect_options_kind_name_key" ON "info_collect_options"("kind", "name");

-- CreateIndex
CREATE UNIQUE INDEX "feedback_categories_parentId_name_key" ON "feedback_categories"("parentId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "help_documents_slug_key" ON "help_documents"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "folders_userId_menuName_key" ON "folders"("userId", "menuName");

-- CreateIndex
CREATE UNIQUE INDEX "audio_records_storageKey_key" ON "audio_records"("storageKey");

-- CreateIndex
CREATE INDEX "audio_records_userId_deletedAt_createdAt_idx" ON "audio_records"("userId", "deletedAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "hot_words_userId_word_key" ON "hot_words"("userId", "word");

-- CreateIndex
CREATE INDEX "transcription_tasks_fileId_idx" ON "transcription_tasks"("fileId");

-- CreateIndex
CREATE INDEX "transcription_tasks_status_idx" ON "transcription_tasks"("status");

-- CreateIndex
CREATE INDEX "user_voices_userId_idx" ON "user_voices"("userId");

-- CreateIndex
CREATE INDEX "tts_tasks_userId_createdAt_idx" ON "tts_tasks"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "welcome_gifts" ADD CONSTRAINT "welcome_gifts_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bean_ledger" ADD CONSTRAINT "bean_ledger_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_cards" ADD CONSTRAINT "time_cards_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_goodsId_fkey" FOREIGN KEY ("goodsId") REFERENCES "pay_goods"("goodsId") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_orderNumber_fkey" FOREIGN KEY ("orderNumber") REFERENCES "orders"("orderNumber") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sign_days" ADD CONSTRAINT "sign_days_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_progress" ADD CONSTRAINT "task_progress_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_progress" ADD CONSTRAINT "task_progress_challengeId_fkey" FOREIGN KEY ("challengeId") REFERENCES "challenge_tasks"("challengeId") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gift_redemptions" ADD CONSTRAINT "gift_redemptions_giftCodeId_fkey" FOREIGN KEY ("giftCodeId") REFERENCES "gift_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gift_redemptions" ADD CONSTRAINT "gift_redemptions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_notifyId_fkey" FOREIGN KEY ("notifyId") REFERENCES "notifications"("notifyId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folders" ADD CONSTRAINT "folders_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audio_records" ADD CONSTRAINT "audio_records_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audio_records" ADD CONSTRAINT "audio_records_menuId_fkey" FOREIGN KEY ("menuId") REFERENCES "folders"("menuId") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hot_words" ADD CONSTRAINT "hot_words_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transcription_tasks" ADD CONSTRAINT "transcription_tasks_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transcription_tasks" ADD CONSTRAINT "transcription_tasks_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_card_deductions" ADD CONSTRAINT "time_card_deductions_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "transcription_tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_card_deductions" ADD CONSTRAINT "time_card_deductions_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "time_cards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quota_days" ADD CONSTRAINT "quota_days_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_voices" ADD CONSTRAINT "user_voices_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tts_tasks" ADD CONSTRAINT "tts_tasks_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Invariants Prisma's schema language cannot express (hand-written; invisible to schema diffs).
ALTER TABLE "users" ADD CONSTRAINT "users_beanBalance_nonnegative" CHECK ("beanBalance" >= 0);
ALTER TABLE "time_cards" ADD CONSTRAINT "time_cards_remaining_range" CHECK ("remaining" >= 0 AND "remaining" <= "seconds");
ALTER TABLE "gift_codes" ADD CONSTRAINT "gift_codes_redemptions_range" CHECK ("redeemedCount" >= 0 AND "redeemedCount" <= "maxRedemptions");
ALTER TABLE "quota_days" ADD CONSTRAINT "quota_days_seconds_nonnegative" CHECK ("secondsUsed" >= 0);
ALTER TABLE "time_card_deductions" ADD CONSTRAINT "time_card_deductions_positive" CHECK ("seconds" > 0);
