import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  StatusCode,
  ZBeanDetailPage,
  ZBeanDetailQuery,
  ZCheckInInfo,
  ZGiftCodeBody,
  ZGiftRedeemResult,
  ZPurchaseGoodsBody,
  ZPurchaseResult,
  ZReceiveRewardBody,
  ZRewardList,
  ZShopGoodsPage,
  ZShopGoodsQuery,
  ZSignResult,
  ZTaskList,
} from "@yuelu/contracts";
import {
  AppError,
  beanDetail,
  purchaseGoods,
  receiveReward,
  redeemGiftCode,
  shopGoods,
  sign,
  signInfo,
  taskList,
} from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { getAndPost } from "../../lib/get-and-post.ts";
import { requestLang } from "../../lib/lang.ts";
import { withGuessLimits } from "../../lib/limiter.ts";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["rewards"];

/** Wrong gift codes a user, and an address, may try per hour before being refused (10003). */
export const GIFT_CODE_GUESSES = { perUser: 10, perIp: 30, windowSeconds: 3600 } as const;

/**
 * Check-in, tasks, gift codes, the bean shop and the bean ledger (spec §7 store/*, challenge/*,
 * gift_pack/*; docs/engagement.md). Paths of spec §7 written without a leading slash are served at
 * the same place.
 */
export default async function rewardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { limiter } = app.deps;
  const domain = app.domain;
  const both = ["GET", "POST"] as const;

  for (const method of both) {
    app.route({
      method,
      url: "/api/v1/store/sign_info",
      schema: { tags, response: { 200: envelopeOf(ZCheckInInfo) } },
      handler: async (req) => ok(await signInfo(domain, userIdOf(req))),
    });
  }

  getAndPost(
    app,
    { url: "/api/v1/store/bean_detail", tags, input: ZBeanDetailQuery, response: envelopeOf(ZBeanDetailPage) },
    async (page, req) => ok(await beanDetail(domain, userIdOf(req), page, requestLang(req))),
  );

  getAndPost(
    app,
    {
      url: "/api/v1/store/goods_list",
      tags,
      input: ZShopGoodsQuery,
      response: envelopeOf(ZShopGoodsPage),
      config: { auth: "public" },
    },
    async (page, req) => ok(await shopGoods(domain, page, requestLang(req))),
  );

  app.post("/api/v1/store/sign", { schema: { tags, response: { 200: envelopeOf(ZSignResult) } } }, async (req) =>
    ok(await sign(domain, userIdOf(req))),
  );

  app.get("/api/v1/challenge/task_list", { schema: { tags, response: { 200: envelopeOf(ZTaskList) } } }, async (req) =>
    ok(await taskList(domain, userIdOf(req), requestLang(req))),
  );

  app.post(
    "/api/v1/challenge/receive_reward",
    { schema: { tags, body: ZReceiveRewardBody, response: { 200: envelopeOf(ZRewardList) } } },
    async (req) => ok(await receiveReward(domain, userIdOf(req), req.body.challengeId)),
  );

  app.post(
    "/api/v1/store/purchase_goods",
    { schema: { tags, body: ZPurchaseGoodsBody, response: { 200: envelopeOf(ZPurchaseResult) } } },
    async (req) => {
      const userId = userIdOf(req);
      // the spec sends userId along: it must be the caller's (the session decides whose beans are spent)
      if (req.body.userId !== undefined && req.body.userId !== userId) throw AppError.invalid("userId");
      return ok(await purchaseGoods(domain, userId, req.body));
    },
  );

  app.post(
    "/api/v1/gift_pack/gift_code_exchange",
    { schema: { tags, body: ZGiftCodeBody, response: { 200: envelopeOf(ZGiftRedeemResult) } } },
    async (req) => {
      const userId = userIdOf(req);
      const { perUser, perIp, windowSeconds } = GIFT_CODE_GUESSES;
      const limits = [
        { key: `gift:user:${userId}`, limit: perUser, windowSeconds },
        { key: `gift:ip:${req.ip}`, limit: perIp, windowSeconds },
      ];
      const redeemed = await withGuessLimits(
        limiter,
        limits,
        () => redeemGiftCode(domain, userId, req.body.packCode),
        // only a code that does not exist (or has expired) is a guess
        (error) => error instanceof AppError && error.code === StatusCode.GiftCodeInvalid,
      );
      return ok(redeemed);
    },
  );
}
