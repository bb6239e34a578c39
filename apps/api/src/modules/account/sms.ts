import { smsCodeText } from "@yuelu/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { SmsSender } from "../../deps.ts";
import { SMS_CODE_TTL_SECONDS } from "./service.ts";

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
        body: JSON.stringify({ phone, code, text: smsCodeText(code, SMS_CODE_TTL_SECONDS) }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS webhook answered HTTP ${res.status}`);
    },
  };
}
