import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  ZCheckout,
  ZCheckoutBody,
  ZCheckoutQuery,
  ZCheckPayResult,
  ZCheckPayResultBody,
  ZDurationCardListQuery,
  ZDurationCardPage,
  ZDurationDetail,
  ZExecutePaymentBody,
  ZExecutePaymentResult,
  ZOrderListQuery,
  ZOrderPage,
  ZPayGoods,
  ZPayGoodsListQuery,
  ZTransferOrder,
} from "@yuelu/contracts";
import { checkout, durationCards, durationDetail, latestOpenOrder, listPayGoods, orderList } from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { publicOrigin } from "./origin.ts";
import { checkPayResult, executePayment, handleNotification, type PaymentDeps } from "./service.ts";

const tags = ["payments"];

/** Membership, duration cards and payment orders (docs/commerce.md; ARCHITECTURE §4). */
export default async function paymentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;
  const inflight = new Map<string, Promise<void>>();
  const deps = (req: FastifyRequest): PaymentDeps => ({
    domain,
    sql: app.deps.sql,
    polls: app.orderPollCache,
    provider: app.payments,
    origin: publicOrigin(req, app.deps.config),
    log: req.log,
    inflight,
  });

  app.get(
    "/api/v1/store/pay_goods_list",
    {
      config: { auth: "public" },
      schema: { tags, querystring: ZPayGoodsListQuery, response: { 200: envelopeOf(z.array(ZPayGoods)) } },
    },
    async (req) => ok(await listPayGoods(domain, req.query.goodsType, requestLang(req))),
  );

  app.post(
    "/api/v1/pay/execute_payment",
    { schema: { tags, body: ZExecutePaymentBody, response: { 200: envelopeOf(ZExecutePaymentResult) } } },
    async (req) => ok(await executePayment(deps(req), userIdOf(req), req.body, requestLang(req))),
  );

  app.post(
    "/api/v1/pay/check_pay_result",
    { schema: { tags, body: ZCheckPayResultBody, response: { 200: envelopeOf(ZCheckPayResult) } } },
    async (req) => ok(await checkPayResult(deps(req), userIdOf(req), req.body)),
  );

  // Alipay's asynchronous notification: server to server, form-encoded, answered with a bare word.
  app.post(
    "/api/v1/pay/notify/alipay",
    {
      config: { auth: "public", crossSite: true, rateLimit: false },
      schema: { tags, body: z.record(z.string(), z.string()) },
    },
    async (req, reply) => reply.type("text/plain; charset=utf-8").send(await handleNotification(deps(req), req.body)),
  );

  app.get(
    "/api/v1/store/pay_order_list",
    { schema: { tags, querystring: ZOrderListQuery, response: { 200: envelopeOf(ZOrderPage) } } },
    async (req) => ok(await orderList(domain, userIdOf(req), req.query, requestLang(req))),
  );

  app.get(
    "/order/get_transfer_order",
    { schema: { tags, response: { 200: envelopeOf(ZTransferOrder) } } },
    async (req) => ok({ order: await latestOpenOrder(domain, userIdOf(req), requestLang(req)) }),
  );

  app.get(
    "/order/get_checkout",
    { schema: { tags, querystring: ZCheckoutQuery, response: { 200: envelopeOf(ZCheckout) } } },
    async (req) => ok(await checkout(domain, req.query.goodsId, requestLang(req))),
  );

  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: "/order/checkout",
      // it places an order, GET included (spec §7): never for another site's page
      config: { writes: true },
      schema: {
        tags,
        ...(method === "GET" ? { querystring: ZCheckoutBody } : { body: ZCheckoutBody }),
        response: { 200: envelopeOf(ZExecutePaymentResult) },
      },
      handler: async (req) => {
        const input = (method === "GET" ? req.query : req.body) as z.infer<typeof ZCheckoutBody>;
        const order = { goodsId: input.goodsId, clientKey: input.clientKey };
        return ok(await executePayment(deps(req), userIdOf(req), order, requestLang(req)));
      },
    });
  }

  app.get(
    "/api/v3/user/get_user_duration_card_list",
    { schema: { tags, querystring: ZDurationCardListQuery, response: { 200: envelopeOf(ZDurationCardPage) } } },
    async (req) => ok(await durationCards(domain, userIdOf(req), req.query, requestLang(req))),
  );

  app.get(
    "/api/v3/user/get_duration_detail",
    { schema: { tags, response: { 200: envelopeOf(ZDurationDetail) } } },
    async (req) => ok(await durationDetail(domain, userIdOf(req), requestLang(req))),
  );
}
