import { randomBytes } from "node:crypto";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, type Lang, ok, parseLang, StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { requestLang } from "../../../lib/lang.ts";
import { isLoopbackClient } from "../../../lib/loopback.ts";
import type { MockAlipayGateway } from "./gateway.ts";
import { type CashierView, cashierPage } from "./page.ts";

const ZOrderParams = z.object({ orderNumber: z.string().min(1).max(80) });
const ZTradeAnswer = z.object({
  orderNumber: z.string(),
  status: z.string(),
  totalAmount: z.string(),
  subject: z.string(),
});

/** A phone opening the QR link: its browser's language unless the URL says otherwise. */
function pageLang(request: FastifyRequest): Lang {
  const query = request.query as Record<string, unknown> | undefined;
  return parseLang(query?.lang) ?? parseLang(request.headers["accept-language"]) ?? requestLang(request);
}

/**
 * The mock gateway's own pages and calls (ARCHITECTURE §4), mounted at /mock-alipay: the cashier
 * page a payUrl opens, and `POST /api/<orderNumber>/scan|pay|fail` (the page's buttons; tests call them too).
 */
export default async function mockAlipayRoutes(fastify: FastifyInstance, options: { gateway: MockAlipayGateway }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { gateway } = options;
  const { config, db } = app.deps;

  /**
   * Who may scan, pay or cancel an order at the mock gateway (which takes no money): the order's
   * owner, signed in — or, outside production, a caller on this machine (tests, a laptop's own
   * browser). Nobody pays or cancels someone else's order.
   */
  async function assertMayDrive(request: FastifyRequest, orderNumber: string) {
    if (!config.isProduction && isLoopbackClient(request)) return;
    const order = await db.order.findUnique({ where: { orderNumber }, select: { userId: true } });
    if (!order) throw new AppError(StatusCode.OrderNotFound, {}, 404);
    if (order.userId !== request.session?.userId) throw new AppError(StatusCode.AccessDenied, {}, 403);
  }

  app.get("/pay/:orderNumber", { schema: { hide: true, params: ZOrderParams } }, async (request, reply) => {
    const { orderNumber } = request.params;
    let view: CashierView;
    try {
      const trade = await gateway.tradeOf(orderNumber);
      const expired = trade.expiresAt <= new Date() && trade.status !== "TRADE_SUCCESS";
      view = {
        orderNumber,
        subject: trade.subject,
        amount: trade.totalAmount,
        status: expired ? "EXPIRED" : (trade.status as CashierView["status"]),
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      view = { orderNumber, subject: "", amount: "0.00", status: "MISSING" };
    }
    const nonce = randomBytes(16).toString("base64");
    return reply
      .code(view.status === "MISSING" ? 404 : 200)
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header(
        "content-security-policy",
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
      .send(cashierPage(pageLang(request), view, nonce));
  });

  for (const action of ["scan", "pay", "fail"] as const) {
    app.post(
      `/api/:orderNumber/${action}`,
      { schema: { tags: ["mock-alipay"], params: ZOrderParams, response: { 200: envelopeOf(ZTradeAnswer) } } },
      async (request) => {
        await assertMayDrive(request, request.params.orderNumber);
        const trade = await gateway[action](request.params.orderNumber);
        return ok({
          orderNumber: request.params.orderNumber,
          status: trade.status,
          totalAmount: trade.totalAmount,
          subject: trade.subject,
        });
      },
    );
  }
}
