import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { AlipayProvider } from "./alipay.ts";
import { MockAlipayGateway } from "./mock-alipay/gateway.ts";
import { mockAlipayKeys } from "./mock-alipay/keys.ts";
import mockAlipayRoutes from "./mock-alipay/routes.ts";
import { NOTIFY_PATH, noPaymentProvider, type PaymentProvider } from "./provider.ts";

const PENDING_QUERY = `SELECT 1 FROM mock_alipay_trades WHERE status = 'TRADE_SUCCESS' AND "notifiedAt" IS NULL LIMIT 1`;

declare module "fastify" {
  interface FastifyInstance {
    /** the configured payment provider (PAYMENT_PROVIDER) */
    payments: PaymentProvider;
  }
}

/**
 * The payment provider of this install. With `mock-alipay`, the gateway's pages and calls are served
 * at /mock-alipay, and its notifications are posted to this app's own notification endpoint through
 * the full HTTP stack (`inject`: parsing, signature check and all).
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config, db } = app.deps;
    if (config.PAYMENT_PROVIDER === "alipay") {
      app.decorate("payments", new AlipayProvider(config));
      return;
    }
    if (config.PAYMENT_PROVIDER === "none") {
      app.decorate("payments", noPaymentProvider);
      app.log.warn("no payment provider is set up (PAYMENT_PROVIDER=none): the cashier says so, nothing can be bought");
      return;
    }
    if (config.isProduction) {
      app.log.warn(
        "PAYMENT_PROVIDER=mock-alipay on a production install: the built-in mock gateway takes no money, so every " +
          "order its owner confirms is granted for free. Use it only for demos; set PAYMENT_PROVIDER=alipay for real payments.",
      );
    }
    const keys = await mockAlipayKeys(app.deps.sql, config.MOCK_ALIPAY_KEYS_FILE);
    const gateway = new MockAlipayGateway(db, keys, {
      clock: app.domain.clock,
      log: app.log,
    });
    app.decorate("payments", gateway);
    await app.register(mockAlipayRoutes, { prefix: "/mock-alipay", gateway });
    app.addHook("onReady", async () => {
      // the catch-up pass (notifications a restart interrupted) only when one is pending: looked for with a
      // plain statement, so that an idle server never loads the ORM for it
      const pending = await app.deps.sql.once(PENDING_QUERY, []).catch(() => [{ unknown: true }]);
      gateway.startDelivery(
        async (params) => {
          const res = await app.inject({
            method: "POST",
            url: NOTIFY_PATH,
            headers: { "content-type": "application/x-www-form-urlencoded" },
            payload: new URLSearchParams(params).toString(),
          });
          return res.body;
        },
        { catchUp: pending.length > 0 },
      );
    });
    app.addHook("onClose", async () => gateway.stop());
  },
  { name: "payments", dependencies: ["deps"] },
);
