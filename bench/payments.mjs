// Payments under load, against the real product (scripts/start.mjs, the mock Alipay gateway):
//  (a) 200 signed-in users each polling check_pay_result on an open order, concurrently, for 30 s:
//      requests/s and latency percentiles (goal: p99 < 100 ms) — once as fast as the server answers
//      (a closed loop: latency then includes the queue, p50 ≈ 200 / throughput), and once at a fixed
//      offered rate (--rate, default 1 000 polls/s: each cashier 25× its real 5 s cadence);
//  (b) a storm of 100 identical, validly signed notifications for one paid order, all at once:
//      how many were answered "success", and how many grants resulted (goal: exactly 1).
// Uses DATABASE_URL/REDIS_URL when set, else the embedded database.
// Usage: node bench/payments.mjs [--users 200] [--duration 30] [--rate 1000] [--storm 100]
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { register } from "tsx/esm/api";
import { startYuelu } from "./lib/yuelu-server.mjs";

register();
const { generateMockAlipayKeys } = await import("../apps/api/src/modules/payments/mock-alipay/keys.ts");
const { tradeSuccessNotification } = await import("../tests/helpers/alipay-notification.ts");

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "200" },
    duration: { type: "string", default: "30" },
    storm: { type: "string", default: "100" },
    rate: { type: "string", default: "1000" },
  },
});
const users = Number(values.users);
const duration = Number(values.duration);
const storm = Number(values.storm);
const rate = Number(values.rate);

// The gateway's keys are ours: the bench signs the storm's notifications itself.
const keys = generateMockAlipayKeys();
const keysFile = path.join(tmpdir(), `yuelu-bench-mock-keys-${process.pid}.json`);
writeFileSync(keysFile, JSON.stringify(keys));

const server = await startYuelu({
  name: "payments",
  port: 8094,
  env: { LOG_LEVEL: "warn", MOCK_ALIPAY_KEYS_FILE: keysFile, PAY_ORDER_TTL_SECONDS: "3600" },
});
const { base } = server;

/** A signed-in session without SMS (dev-login: this machine, outside production), and one call helper. */
async function session(phone) {
  const res = await fetch(`${base}/account/dev-login?phone=${phone}&redir=/`, { redirect: "manual" });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const api = async (url, body) => {
    const r = await fetch(`${base}/voice_yuelu${url}`, {
      method: body ? "POST" : "GET",
      headers: { cookie, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await r.json();
    if (json.status_code !== 1) throw new Error(`${url}: ${JSON.stringify(json)}`);
    return json.data;
  };
  return { cookie, api };
}

try {
  console.log(`setup: ${server.setup}`);

  // ── (a) polling ──
  const pollers = [];
  for (let i = 0; i < users; i++) {
    const { cookie, api } = await session(`1370000${String(i).padStart(4, "0")}`);
    const goodsId = [7, 8, 9, 1, 2][i % 5];
    const order = await api("/api/v1/pay/execute_payment", { goodsId, payAgent: "alipay", source: 0 });
    pollers.push({ cookie, body: JSON.stringify({ goodsId, orderNumber: order.orderNumber, payAgent: "alipay" }) });
  }
  const report = (label, r) =>
    console.log(
      `(a) check_pay_result, ${users} concurrent pollers for ${duration} s, ${label}: ${Math.round(r.rps)} req/s, ` +
        `p50 ${r.p50} ms, p90 ${r.p90} ms, p99 ${r.p99} ms, max ${r.max} ms, ${r.errors} errors — ` +
        `goal p99 < 100 ms: ${r.p99 < 100 ? "met" : "NOT met"}`,
    );

  // As fast as answered (autocannon): one user and order per connection, like 200 cashier dialogs polling at once.
  let next = 0;
  const flat = await new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${base}/voice_yuelu/api/v1/pay/check_pay_result`,
        method: "POST",
        connections: users,
        duration,
        headers: { "content-type": "application/json" },
        setupClient: (client) => {
          const p = pollers[next++ % pollers.length];
          client.setHeadersAndBody({ "content-type": "application/json", cookie: p.cookie }, p.body);
        },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    ),
  );
  report("as fast as answered", { rps: flat.requests.average, ...flat.latency, errors: flat.errors + flat.non2xx });

  // Paced: each poller sends its next poll every users/rate seconds (at once if the last one took longer),
  // the latency of every poll measured from its send.
  const every = (users / rate) * 1000;
  const latencies = [];
  let errors = 0;
  const until = performance.now() + duration * 1000;
  await Promise.all(
    pollers.map(async (p, i) => {
      await new Promise((r) => setTimeout(r, (i / users) * every)); // spread the first polls
      for (let due = performance.now(); due < until; due += every) {
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        const sent = performance.now();
        const res = await fetch(`${base}/voice_yuelu/api/v1/pay/check_pay_result`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: p.cookie },
          body: p.body,
        });
        const ok = res.ok && (await res.json()).status_code === 1;
        latencies.push(performance.now() - sent);
        if (!ok) errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  report(`paced at ${rate} polls/s`, {
    rps: latencies.length / duration,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: Math.round(latencies.at(-1)),
    errors,
  });

  // ── (b) notification storm ──
  const buyer = await session("13700099999");
  const before = await buyer.api("/api/v1/user/info");
  const order = await buyer.api("/api/v1/pay/execute_payment", { goodsId: 9, payAgent: "alipay", source: 0 });
  const signed = tradeSuccessNotification(keys, {
    orderNumber: order.orderNumber,
    totalAmount: "336.00",
    subject: "年度会员",
  });
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: storm }, () =>
      fetch(`${base}/voice_yuelu/api/v1/pay/notify/alipay`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: signed,
      }).then((r) => r.text()),
    ),
  );
  const elapsed = Date.now() - started;
  const after = await buyer.api("/api/v1/user/info");
  const orders = await buyer.api("/api/v1/store/pay_order_list?pageSize=10");
  const days = Math.round(
    (after.memberEffectiveTime - Math.max(before.memberEffectiveTime, Math.floor(started / 1000))) / 86400,
  );
  const grants = days === 365 ? 1 : days / 365;
  console.log(
    `(b) ${storm} identical notifications at once (${elapsed} ms): ${answers.filter((a) => a === "success").length} answered success, ` +
      `order tradeStatus ${orders.list[0].tradeStatus}, membership extended by ${days} days = ${grants} grant(s) — goal exactly 1: ${grants === 1 ? "met" : "NOT met"}`,
  );
} finally {
  await server.stop();
}
