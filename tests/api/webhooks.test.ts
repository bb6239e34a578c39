import { FileStatus, WEBHOOK_MANUAL_SENDS_PER_HOUR } from "@yuelu/contracts";
import { CLI_ACTOR, claimTask, completeTask, setRole } from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { startWebhookWorker, type WebhookWorkerOptions } from "../../apps/worker/src/webhook-worker.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { seedRecord } from "../helpers/factories.ts";
import { FakeWebhookReceiver } from "../helpers/fake-webhook-receiver.ts";
import { waitFor } from "../helpers/tasks.ts";

/**
 * Webhooks (docs/integrators.md "Webhooks"): the outbox written with the event, signed deliveries
 * (Standard Webhooks), retries with the same webhook-id, restarts, re-sends, the SSRF rule, owners.
 */

let t: TestApp;
/** the same database with WEBHOOK_ALLOW_PRIVATE off (the default): the SSRF rule applies */
let strict: TestApp;
let receiver: FakeWebhookReceiver;
let webhooks: ReturnType<typeof startWebhookWorker>;
let alice: SignedIn;
let bob: SignedIn;

const quiet = { info: () => {}, error: () => {} };
/** short waits between attempts, so retries happen within a test */
const FAST: WebhookWorkerOptions = { schedule: [200, 200, 200], timeoutMs: 3000 };

function startWorker(options: WebhookWorkerOptions = FAST) {
  return startWebhookWorker(
    { domain: t.domain, config: t.config, queues: t.queues, events: t.events, log: quiet },
    options,
  );
}
async function stopWorker(w: ReturnType<typeof startWebhookWorker>) {
  w.stop();
  await w.worker.close();
}

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
  strict = await createTestApp({}, { shareDatabaseWith: t });
  receiver = await FakeWebhookReceiver.start();
  webhooks = startWorker();
  await webhooks.worker.waitUntilReady();
  alice = await signIn(t);
  bob = await signIn(t);
});
afterAll(async () => {
  await receiver?.close();
  await strict?.close();
  await t?.close();
});

const api = (p: string) => `/voice_yuelu${p}`;
const post = (who: SignedIn, p: string, body: object, app = t) =>
  app.http().post(api(p)).set("Cookie", who.cookie).send(body);
const get = (who: SignedIn, p: string) => t.http().get(api(p)).set("Cookie", who.cookie);

async function register(who: SignedIn, path: string, events: string[]) {
  const res = await post(who, "/api/v1/webhooks/create", { url: receiver.url(path), events, description: path });
  expect(res.body.status_code, res.body.status_msg).toBe(1);
  return res.body.data as { id: number; secret: string; url: string; events: string[] };
}

async function deliveriesOf(who: SignedIn, endpointId: number) {
  const res = await get(who, `/api/v1/webhooks/deliveries?id=${endpointId}`);
  expect(res.body.status_code, res.body.status_msg).toBe(1);
  return res.body.data as {
    total: number;
    list: {
      id: number;
      messageId: string;
      eventType: string;
      status: string;
      attempts: number;
      attemptList: { attempt: number; statusCode: number | null; responseBody: string; error: string }[];
    }[];
  };
}

async function payAnOrder(who: SignedIn) {
  const made = await post(who, "/api/v1/pay/execute_payment", { goodsId: 8, payAgent: "alipay", source: 0 });
  expect(made.body.status_code, made.body.status_msg).toBe(1);
  const orderNumber = made.body.data.orderNumber as string;
  await t.http().post(`/mock-alipay/api/${orderNumber}/pay`).send({});
  await waitFor(
    "the order to be paid",
    async () => (await t.db.order.findUnique({ where: { orderNumber } }))?.grantedAt,
  );
  return orderNumber;
}

/** A transcription finished by the worker's own rule (completeTask), as a real job finishes it. */
async function finishATranscription(userId: number) {
  const record = await seedRecord(t.db, { userId, fileStatus: FileStatus.InQueue });
  const task = await t.db.transcriptionTask.create({
    data: { fileId: record.fileId, userId, status: FileStatus.InQueue, language: "en", speakerCount: 0 },
  });
  expect(await claimTask(t.domain, task.id)).not.toBeNull();
  expect(await completeTask(t.domain, task.id, { segments: [], language: "en" })).toBe(true);
  return { taskId: task.id, fileId: record.fileId };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("delivery", () => {
  it("an order paid through the mock gateway reaches the subscribed endpoint once, signed", async () => {
    const paid = await register(alice, "/paid", ["order.paid"]);
    expect(paid.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await register(alice, "/not-subscribed", ["transcription.finished"]);
    const orderNumber = await payAnOrder(alice);

    await waitFor("the webhook", async () => receiver.to("/paid").length > 0);
    const [request] = receiver.to("/paid");
    const payload = receiver.verify(request!, paid.secret);
    expect(payload).toMatchObject({
      type: "order.paid",
      data: { userId: alice.userId, orderNumber, goodsId: 8, status: "paid" },
    });
    expect(Date.parse(payload.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(request!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(request!.headers["content-type"]).toBe("application/json");
    // a wrong secret does not verify
    expect(() => receiver.verify(request!, `whsec_${Buffer.alloc(32, 1).toString("base64")}`)).toThrow();

    await sleep(500);
    expect(receiver.to("/paid")).toHaveLength(1);
    expect(receiver.to("/not-subscribed")).toHaveLength(0);
    const log = await deliveriesOf(alice, paid.id);
    expect(log.total).toBe(1);
    expect(log.list[0]).toMatchObject({
      eventType: "order.paid",
      status: "delivered",
      attempts: 1,
      messageId: request!.headers["webhook-id"],
    });
    expect(log.list[0]!.attemptList).toMatchObject([{ attempt: 1, statusCode: 200, responseBody: "thanks" }]);
  });

  it("a receiver that answers 500 twice gets the same webhook-id again until it answers 200", async () => {
    const hook = await register(alice, "/flaky", ["transcription.finished", "transcription.failed"]);
    receiver.answer("/flaky", 500, 500);
    const { fileId, taskId } = await finishATranscription(alice.userId);

    await waitFor("three attempts", async () => receiver.to("/flaky").length >= 3);
    const requests = receiver.to("/flaky");
    expect(new Set(requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const r of requests) {
      expect(receiver.verify(r, hook.secret)).toMatchObject({
        type: "transcription.finished",
        data: {
          taskId,
          fileId,
          status: "finished",
          links: { transcript: expect.stringContaining(`fileId=${fileId}`) },
        },
      });
    }
    const delivery = await waitFor("the delivery to be delivered", async () => {
      const d = (await deliveriesOf(alice, hook.id)).list[0]!;
      return d.status === "delivered" && d;
    });
    expect(delivery.attempts).toBe(3);
    expect(delivery.attemptList.map((a) => a.statusCode)).toEqual([200, 500, 500]);
    expect(delivery.attemptList[1]!.responseBody).toBe("nope 500");
  });

  it("gives up after its schedule and says so; a re-send starts again with the same webhook-id", async () => {
    const hook = await register(alice, "/down", ["order.paid"]);
    receiver.answer("/down", 503, 503, 503, 503);
    await payAnOrder(alice);
    const failed = await waitFor("the delivery to fail", async () => {
      const d = (await deliveriesOf(alice, hook.id)).list[0];
      return d?.status === "failed" && d;
    });
    expect(failed.attempts).toBe(4); // 1 + the 3 retries of the test schedule
    expect(receiver.to("/down")).toHaveLength(4);

    const resent = await post(alice, "/api/v1/webhooks/resend", { deliveryId: failed.id });
    expect(resent.body.status_code, resent.body.status_msg).toBe(1);
    expect(resent.body.data).toMatchObject({ id: failed.id, status: "pending" });
    await waitFor("the re-sent delivery", async () => receiver.to("/down").length === 5);
    expect(receiver.to("/down")[4]!.headers["webhook-id"]).toBe(failed.messageId);
    const after = await waitFor("delivered", async () => {
      const d = (await deliveriesOf(alice, hook.id)).list[0]!;
      return d.status === "delivered" && d;
    });
    expect(after.attempts).toBe(5);
  });

  it("a re-send of a delivery waiting for its retry sends it now, not when the wait is over", async () => {
    const hook = await register(alice, "/later", ["order.paid"]);
    await stopWorker(webhooks);
    webhooks = startWorker({ ...FAST, schedule: [60_000] });
    receiver.answer("/later", 500);
    const test = await post(alice, "/api/v1/webhooks/test", { id: hook.id });
    await waitFor("the first attempt", async () => (await deliveriesOf(alice, hook.id)).list[0]?.attempts === 1);
    const resent = await post(alice, "/api/v1/webhooks/resend", { deliveryId: test.body.data.id });
    expect(resent.body.data.status).toBe("pending");
    await waitFor("the second attempt, long before a minute", async () => receiver.to("/later").length === 2, 5000);
    await stopWorker(webhooks);
    webhooks = startWorker();
  });

  it("the outbox outlives the worker: a lost queue and an unheard notice are delivered after a restart", async () => {
    const mid = await register(alice, "/restart", ["order.paid"]);
    const down = await register(alice, "/while-down", ["order.paid"]);
    await stopWorker(webhooks);
    // a worker whose retry waits long enough for us to lose its job
    webhooks = startWorker({ ...FAST, schedule: [1500] });
    receiver.answer("/restart", 500);
    await post(alice, "/api/v1/webhooks/test", { id: mid.id });
    const firstTry = await waitFor("the first attempt to be recorded", async () => {
      const d = (await deliveriesOf(alice, mid.id)).list[0];
      return d?.attempts === 1 && d;
    });
    expect(firstTry.status).toBe("pending");
    // the worker dies and Redis loses its jobs: only the database remembers
    await stopWorker(webhooks);
    await t.queues.queue(QueueName.Webhooks).obliterate({ force: true });
    // an event while no worker runs: its notice is heard by nobody
    await post(alice, "/api/v1/webhooks/test", { id: down.id });
    await sleep(1600);
    expect(receiver.to("/restart")).toHaveLength(1);
    expect(receiver.to("/while-down")).toHaveLength(0);

    webhooks = startWorker();
    // the sweep a starting worker runs, and housekeeping every 10 minutes
    const swept = await runHousekeeping(t.domain, { queues: t.queues });
    expect(swept.requeuedWebhooks).toBeGreaterThanOrEqual(2);
    await waitFor(
      "both deliveries",
      async () => receiver.to("/restart").length === 2 && receiver.to("/while-down").length === 1,
    );
    const [first, second] = receiver.to("/restart");
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(receiver.verify(receiver.to("/while-down")[0]!, down.secret)).toMatchObject({ type: "webhook.test" });
  });
});

describe("transcript.updated (issue 42)", () => {
  it("one delivery per committed change, with its kind and version; search finds an edit's word at once", async () => {
    const endpoint = await register(alice, "/transcripts", ["transcript.updated"]);
    const seen = () => receiver.to("/transcripts").map((r) => receiver.verify(r, endpoint.secret));
    const waitForCount = (n: number) => waitFor(`${n} transcript.updated`, async () => seen().length >= n || null);

    // a new transcript (the worker's rule): "finished", version 1
    const { fileId } = await finishATranscription(alice.userId);
    await waitForCount(1);
    expect(seen()[0]).toMatchObject({ type: "transcript.updated", data: { fileId, change: "finished", version: 1 } });

    // the user gives it text: 50 segments in one update_text — one change
    const segments = Array.from({ length: 50 }, (_, i) => ({
      spkName: "说话人1",
      startTime: i * 1000,
      endTime: i * 1000 + 900,
      text: i === 7 ? "we discussed the zanzibar proposal" : `sentence ${i}`,
    }));
    const replaced = await post(alice, "/api/v1/audio/text/update_text", { fileId, asrResult: segments });
    expect(replaced.body.status_code, replaced.body.status_msg).toBe(1);
    await waitForCount(2);
    expect(seen()[1]).toMatchObject({ data: { fileId, change: "edited", version: 2 } });

    // a paragraph edited: "edited"; search finds the word typed, the moment the call answered
    const edited = await post(alice, "/text/update_para", { fileId, index: 3, text: "the quokka budget" });
    expect(edited.body.status_code, edited.body.status_msg).toBe(1);
    const found = await get(alice, `/api/v1/search?q=quokka`);
    expect(found.body.status_code, found.body.status_msg).toBe(1);
    expect(JSON.stringify(found.body.data)).toContain(String(fileId));
    await waitForCount(3);
    expect(seen()[2]).toMatchObject({ data: { change: "edited", version: 3 } });

    // a speaker renamed in one segment, then in all 50 at once: one change each
    await post(alice, "/text/update_para", { fileId, index: 0, spkName: "王老师" });
    await post(alice, "/text/update_para", { fileId, index: 1, spkName: "李老师", renameAll: true });
    await waitForCount(5);
    expect(
      seen()
        .slice(3)
        .map((p) => [p.data.change, p.data.version]),
    ).toEqual([
      ["speakers", 4],
      ["speakers", 5],
    ]);

    // the summary saved
    const summary = await post(alice, "/text/update_abstracts", { fileId, abstracts: "A short summary." });
    expect(summary.body.status_code, summary.body.status_msg).toBe(1);
    await waitForCount(6);
    expect(seen()[5]).toMatchObject({ data: { change: "summary", version: 6 } });

    // an edit that changes nothing announces nothing
    await post(alice, "/text/update_para", { fileId, index: 0, spkName: "王老师" });
    await sleep(600);
    expect(seen()).toHaveLength(6);
    const row = await t.db.transcript.findUniqueOrThrow({ where: { fileId } });
    expect(row.version).toBe(6);
    // and every delivery was one event, delivered once
    expect(new Set(receiver.to("/transcripts").map((r) => r.headers["webhook-id"])).size).toBe(6);
  });
});

describe("endpoints", () => {
  it("refuses loopback, private, link-local and metadata targets unless the operator allows them", async () => {
    const who = await signIn(strict);
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/hook",
      "http://192.168.1.20/hook",
      "http://100.64.0.1/hook",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      // IPv6 forms that carry loopback or private IPv4 (issue 40): SIIT, local-use NAT64, 6to4, Teredo
      "http://[::ffff:0:127.0.0.1]/hook",
      "http://[64:ff9b:1::7f00:1]/hook",
      "http://[2002:7f00:1::]/hook",
      "http://[2002:a9fe:a9fe::]/latest/meta-data/",
      "http://[2001:0:808:808::80ff:fffe]/hook",
      "http://[fe80::1]/hook",
      "http://0.0.0.0/hook",
      "http://localhost:8080/hook",
      "ftp://example.com/hook",
      "not a url",
    ]) {
      const res = await post(who, "/api/v1/webhooks/create", { url, events: ["order.paid"] }, strict).set("lang", "en");
      expect(res.body.status_code, url).toBe(10002);
      expect(res.body.status_msg, url).toContain("url");
    }
    const res = await post(
      who,
      "/api/v1/webhooks/create",
      { url: "http://localhost/x", events: ["order.paid"] },
      strict,
    );
    expect(res.body.status_msg).toContain("内网");
    // an update to a private URL is refused too
    const allowed = await register(alice, "/update-me", ["order.paid"]);
    const moved = await post(alice, "/api/v1/webhooks/update", { id: allowed.id, url: "http://10.1.2.3/" }, strict);
    expect(moved.body.status_code).toBe(10002);
    // WEBHOOK_ALLOW_PRIVATE=true (this suite's main app): the receiver on 127.0.0.1 is fine
    expect(allowed.url).toBe(receiver.url("/update-me"));
  });

  it("validates events and keeps at most 10 per user, counted under a lock", async () => {
    const carol = await signIn(t);
    const bad = await post(carol, "/api/v1/webhooks/create", { url: receiver.url("/x"), events: ["nope"] });
    expect(bad.body.status_code).toBe(10002);
    const none = await post(carol, "/api/v1/webhooks/create", { url: receiver.url("/x"), events: [] });
    expect(none.body.status_code).toBe(10002);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(carol, "/api/v1/webhooks/create", { url: receiver.url(`/many-${i}`), events: "order.paid,speech.ready" }),
      ),
    );
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(10);
    expect(codes.filter((c) => c === 50007)).toHaveLength(2);
    const list = await get(carol, "/api/v1/webhooks/list");
    expect(list.body.data).toMatchObject({ total: 10, limit: 10 });
    expect(list.body.data.list[0].events).toEqual(["order.paid", "speech.ready"]);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
  });

  it("updates, disables (nothing is written for a disabled endpoint), shows the secret again, deletes", async () => {
    const hook = await register(alice, "/toggle", ["order.paid"]);
    const off = await post(alice, "/api/v1/webhooks/update", { id: hook.id, enabled: false });
    expect(off.body.data).toMatchObject({ id: hook.id, enabled: false, events: ["order.paid"] });
    await payAnOrder(alice);
    expect((await deliveriesOf(alice, hook.id)).total).toBe(0);

    const on = await post(alice, "/api/v1/webhooks/update", { id: hook.id, enabled: true, events: ["speech.ready"] });
    expect(on.body.data).toMatchObject({ enabled: true, events: ["speech.ready"] });
    const secret = await post(alice, "/api/v1/webhooks/secret", { id: hook.id });
    expect(secret.body.data).toEqual({ id: hook.id, secret: hook.secret });

    const deleted = await post(alice, "/api/v1/webhooks/delete", { id: hook.id });
    expect(deleted.body.data).toEqual({ id: hook.id });
    expect((await get(alice, `/api/v1/webhooks/deliveries?id=${hook.id}`)).body.status_code).toBe(30001);
  });

  it("another user's endpoints and deliveries are not found", async () => {
    const hook = await register(alice, "/private-to-alice", ["order.paid"]);
    const test = await post(alice, "/api/v1/webhooks/test", { id: hook.id });
    expect(test.body.data).toMatchObject({ eventType: "webhook.test", status: "pending" });
    for (const [path, body] of [
      ["/api/v1/webhooks/update", { id: hook.id, enabled: false }],
      ["/api/v1/webhooks/delete", { id: hook.id }],
      ["/api/v1/webhooks/secret", { id: hook.id }],
      ["/api/v1/webhooks/test", { id: hook.id }],
      ["/api/v1/webhooks/resend", { deliveryId: test.body.data.id }],
    ] as const) {
      expect((await post(bob, path, body)).body.status_code, path).toBe(30001);
    }
    expect((await get(bob, `/api/v1/webhooks/deliveries?id=${hook.id}`)).body.status_code).toBe(30001);
    expect((await get(bob, "/api/v1/webhooks/list")).body.data.list).toEqual([]);
    expect((await t.http().get(api("/api/v1/webhooks/list"))).body.status_code).toBe(10001);
  });

  it("are in the OpenAPI document, the operator's under their admin tag", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body as {
      paths: Record<string, Record<string, { tags?: string[]; requestBody?: unknown }>>;
    };
    const create = doc.paths["/voice_yuelu/api/v1/webhooks/create"]?.post;
    expect(create?.tags).toEqual(["webhooks"]);
    expect(JSON.stringify(create?.requestBody)).toContain("order.paid");
    expect(doc.paths["/voice_yuelu/admin/webhooks"]?.post?.tags).toEqual(["admin: webhooks"]);
    expect(doc.paths["/voice_yuelu/api/v1/webhooks/deliveries"]?.get).toBeDefined();
  });

  it(`test events and re-sends: ${WEBHOOK_MANUAL_SENDS_PER_HOUR} an hour per user together, then 10003 and nothing queued`, async () => {
    const dave = await signIn(t);
    const hook = await register(dave, "/limited", ["order.paid"]);
    const first = await post(dave, "/api/v1/webhooks/test", { id: hook.id });
    expect(first.body.status_code, first.body.status_msg).toBe(1);
    // the rest of the hour's sends and 6 more, in parallel, half tests and half re-sends
    const extra = 6;
    const calls = Array.from({ length: WEBHOOK_MANUAL_SENDS_PER_HOUR - 1 + extra }, (_, i) => i % 2 === 0);
    const answers = await Promise.all(
      calls.map((isTest) =>
        isTest
          ? post(dave, "/api/v1/webhooks/test", { id: hook.id })
          : post(dave, "/api/v1/webhooks/resend", { deliveryId: first.body.data.id }),
      ),
    );
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(WEBHOOK_MANUAL_SENDS_PER_HOUR - 1);
    const refused = answers.filter((a) => a.body.status_code === 10003);
    expect(refused).toHaveLength(extra);
    for (const r of refused) expect(r.status).toBe(429);
    // a refused test event wrote no delivery: the first one, and one per test call let through
    const testsLetThrough = answers.filter((a, i) => calls[i] && a.body.status_code === 1).length;
    expect((await deliveriesOf(dave, hook.id)).total).toBe(1 + testsLetThrough);
    // another user's sends are counted apart
    const erin = await signIn(t);
    const theirs = await register(erin, "/not-limited", ["order.paid"]);
    expect((await post(erin, "/api/v1/webhooks/test", { id: theirs.id })).body.status_code).toBe(1);
  });

  it("works with an API key as well as the cookie", async () => {
    const key = await post(alice, "/api/v1/api_keys/create", { name: "hooks" });
    const list = await t.http().get(api("/api/v1/webhooks/list")).set("Authorization", `Bearer ${key.body.data.key}`);
    expect(list.body.status_code).toBe(1);
    expect(list.body.data.total).toBeGreaterThan(0);
  });
});

describe("operator-wide endpoints", () => {
  it("receive every user's events; each action is audited; users cannot reach them", async () => {
    const admin = await signIn(t);
    await setRole(t.domain, CLI_ACTOR, admin.phone, "admin");
    const created = await t
      .http()
      .post(api("/admin/webhooks"))
      .set("Cookie", admin.cookie)
      .send({ url: receiver.url("/operator"), events: ["order.paid"], description: "billing" });
    expect(created.body.status_code, created.body.status_msg).toBe(1);
    const hook = created.body.data as { id: number; secret: string };
    // not a user's endpoint: not in anyone's list, not reachable through the user calls
    expect((await get(admin, "/api/v1/webhooks/list")).body.data.list).toEqual([]);
    expect((await post(admin, "/api/v1/webhooks/secret", { id: hook.id })).body.status_code).toBe(30001);
    expect((await t.http().get(api("/admin/webhooks")).set("Cookie", bob.cookie)).body.status_code).toBe(10007);

    const orderNumber = await payAnOrder(bob);
    await waitFor("the operator's webhook", async () =>
      receiver.to("/operator").find((r) => r.body.includes(orderNumber)),
    );
    const request = receiver.to("/operator").find((r) => r.body.includes(orderNumber))!;
    expect(receiver.verify(request, hook.secret)).toMatchObject({ data: { userId: bob.userId, orderNumber } });

    const deliveries = await t
      .http()
      .get(api(`/admin/webhooks/deliveries?id=${hook.id}`))
      .set("Cookie", admin.cookie);
    expect(deliveries.body.data.total).toBeGreaterThan(0);
    const off = await t
      .http()
      .post(api("/admin/webhooks/update"))
      .set("Cookie", admin.cookie)
      .send({ id: hook.id, enabled: false });
    expect(off.body.data.enabled).toBe(false);
    const log = await t.http().get(api("/admin/audit?action=webhook.")).set("Cookie", admin.cookie);
    const actions = log.body.data.items.map((e: { action: string; target: string }) => `${e.action} ${e.target}`);
    expect(actions).toEqual(
      expect.arrayContaining([`webhook.create webhook:${hook.id}`, `webhook.update webhook:${hook.id}`]),
    );
  });
});
