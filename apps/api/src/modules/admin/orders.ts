import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  StatusCode,
  ZAdminOrderDetail,
  ZAdminOrderPage,
  ZAdminOrderParams,
  ZAdminOrderQuery,
  ZAdminRefundBody,
  ZAdminRefundResult,
  ZAdminRequeryResult,
} from "@yuelu/contracts";
import type { OrderModel } from "@yuelu/db";
import { AppError, adminOrderDetail, adminOrders, auditRequery, providerOrderNumber, refundOrder } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { askProvider } from "../payments/service.ts";
import { actorOf } from "./actor.ts";

const tags = ["admin: orders"];

/** /voice_yuelu/admin (orders): the table, one order, re-query the provider, refund (docs/admin.md "Orders"). */
export default async function adminOrdersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.get(
    "/admin/orders",
    { schema: { tags, querystring: ZAdminOrderQuery, response: { 200: envelopeOf(ZAdminOrderPage) } } },
    async (req) => ok(await adminOrders(domain, req.query, requestLang(req))),
  );

  app.get(
    "/admin/orders/:orderNumber",
    { schema: { tags, params: ZAdminOrderParams, response: { 200: envelopeOf(ZAdminOrderDetail) } } },
    async (req) => ok(await adminOrderDetail(domain.db, req.params.orderNumber, requestLang(req))),
  );

  // A stuck order: ask its provider now and apply the answer exactly as the cashier's poll does.
  app.post(
    "/admin/orders/:orderNumber/requery",
    { schema: { tags, params: ZAdminOrderParams, response: { 200: envelopeOf(ZAdminRequeryResult) } } },
    async (req) => {
      const { orderNumber } = req.params;
      const order = await domain.db.order.findUnique({ where: { orderNumber } });
      if (!order) throw new AppError(StatusCode.OrderNotFound);
      const state = await askProvider({ domain, provider: app.payments, log: req.log }, order);
      const latest = await domain.db.order.findUniqueOrThrow({ where: { orderNumber } });
      const outcome = {
        providerStatus: state?.status ?? "QUERY_FAILED",
        before: order.tradeStatus,
        after: latest.tradeStatus,
        granted: order.grantedAt === null && latest.grantedAt !== null,
      };
      await auditRequery(domain.db, await actorOf(req), orderNumber, outcome);
      return ok({ ...outcome, order: await adminOrderDetail(domain.db, orderNumber, requestLang(req)) });
    },
  );

  app.post(
    "/admin/orders/:orderNumber/refund",
    {
      schema: {
        tags,
        params: ZAdminOrderParams,
        body: ZAdminRefundBody,
        response: { 200: envelopeOf(ZAdminRefundResult) },
      },
    },
    async (req) => {
      const { orderNumber } = req.params;
      const { reason } = req.body;
      const refundAtProvider = async (order: OrderModel) => {
        // the provider that took the money gives it back; another one configured now cannot
        if (order.provider !== app.payments.name) throw new AppError(StatusCode.PaymentUnavailable);
        await app.payments.refund({
          outTradeNo: providerOrderNumber(order),
          amountFen: order.amountFen,
          refundRequestNo: `refund-${order.orderNumber}`,
          reason,
        });
      };
      const revoked = await refundOrder(domain, await actorOf(req), orderNumber, reason, refundAtProvider);
      return ok({ ...revoked, order: await adminOrderDetail(domain.db, orderNumber, requestLang(req)) });
    },
  );
}
