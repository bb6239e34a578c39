import type { FastifyBaseLogger } from "fastify";
import type { SmsSender } from "../../deps.ts";

/** Logs the code instead of sending it: development and self-hosting without an SMS gateway. */
export function consoleSms(log: Pick<FastifyBaseLogger, "info">): SmsSender {
  return {
    name: "console",
    async send(phone, code) {
      log.info({ phone: `${phone.slice(0, 3)}****${phone.slice(7)}`, code }, "SMS code (console provider)");
    },
  };
}

/** POSTs `{phone, code, text}` as JSON to an operator's gateway (any SMS vendor behind a small adapter). */
export function webhookSms(url: string): SmsSender {
  return {
    name: "webhook",
    async send(phone, code) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone, code, text: `【悦录】验证码 ${code}，5分钟内有效。` }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS webhook answered HTTP ${res.status}`);
    },
  };
}
