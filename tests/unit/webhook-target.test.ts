import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { assertWebhookTarget, isPublicAddress } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAbsoluteLinks } from "../../apps/worker/src/jobs/deliver-webhook.ts";
import { postWebhook } from "../../apps/worker/src/webhooks/post.ts";

/** The SSRF rule of webhooks (docs/integrators.md "Webhooks") and the sender's HTTP behaviour. */

describe("which addresses a webhook may reach", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    // IPv6 forms that carry a private or loopback IPv4 (issue 40): each reaches 127.0.0.1 / the LAN
    // through a translator or tunnel on the way
    "::ffff:0:127.0.0.1", // IPv4-translated (SIIT)
    "::ffff:0:7f00:1",
    "::ffff:0:a00:1", // SIIT 10.0.0.1
    "64:ff9b:1::7f00:1", // local-use NAT64, /96 form
    "64:ff9b:1:7f00:1::", // local-use NAT64, /48 form (the IPv4 right after the prefix)
    "64:ff9b:1::808:808", // local-use NAT64 is refused whatever it carries: not globally reachable
    "2002:7f00:1::", // 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1", // 6to4 of the cloud metadata service
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2001:0:7f00:1::a247:27dd", // Teredo, server 127.0.0.1
    "2001:0:808:808::80ff:fffe", // Teredo, client 127.0.0.1 (bits flipped)
    "2001:0:808:808::f5ff:fffe", // Teredo, client 10.0.0.1
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "::ffff:0:8.8.8.8", // SIIT of a public address
    "64:ff9b::808:808", // well-known NAT64 of a public address
    "2002:808:808::1", // 6to4 of a public address
    "2001:0:808:808::a247:27dd", // Teredo, server 8.8.8.8, client 93.184.216.34
  ])("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("checks every address a host resolves to, and refuses a host that does not resolve", async () => {
    const resolveTo = (addresses: string[]) => async () => addresses;
    await expect(assertWebhookTarget("https://hooks.example/x", false, resolveTo(["93.184.216.34"]))).resolves.toBe(
      undefined,
    );
    // one private answer among public ones is enough to refuse (the connection might pick it)
    await expect(
      assertWebhookTarget("https://hooks.example/x", false, resolveTo(["93.184.216.34", "10.0.0.5"])),
    ).rejects.toMatchObject({ field: "url", reason: expect.stringContaining("private") });
    await expect(
      assertWebhookTarget("https://nowhere.example/x", false, async () => {
        throw new Error("ENOTFOUND");
      }),
    ).rejects.toMatchObject({ field: "url", reason: "its host does not resolve" });
    await expect(assertWebhookTarget("file:///etc/passwd", true)).rejects.toMatchObject({ field: "url" });
    await expect(assertWebhookTarget("http://10.0.0.1/", true)).resolves.toBe(undefined);
  });
});

describe("the sender", () => {
  let server: http.Server;
  const hits: string[] = [];
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      if (req.url === "/redirect") return res.writeHead(302, { location: "http://169.254.169.254/" }).end();
      if (req.url === "/slow") return; // never answers
      if (req.url === "/big") return res.writeHead(200).end("x".repeat(100_000));
      res.writeHead(204).end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
  });

  const send = (url: string, allowPrivate = true, timeoutMs?: number) =>
    postWebhook({ url, headers: { "content-type": "application/json" }, body: "{}", allowPrivate, timeoutMs });

  it("refuses a private target at delivery, by literal address and by name (DNS rebinding)", async () => {
    const before = hits.length;
    const literal = await send(`${base}/a`, false);
    expect(literal).toMatchObject({ statusCode: null, error: expect.stringContaining("not a public address") });
    const port = new URL(base).port;
    const byName = await send(`http://localhost:${port}/b`, false);
    expect(byName).toMatchObject({ statusCode: null, error: expect.stringContaining("not a public address") });
    expect(hits.length).toBe(before);
  });

  it("does not follow redirects, gives up after its timeout, and keeps only the start of a large answer", async () => {
    expect(await send(`${base}/redirect`)).toMatchObject({ statusCode: 302 });
    expect(hits).not.toContain("/");
    const slow = await send(`${base}/slow`, true, 300);
    expect(slow).toMatchObject({ statusCode: null, error: "no answer within 0.3 s" });
    expect(slow.durationMs).toBeGreaterThanOrEqual(290);
    const big = await send(`${base}/big`);
    expect(big.statusCode).toBe(200);
    expect(big.responseBody.length).toBe(1024);
    expect(await send(`${base}/ok`)).toMatchObject({ statusCode: 204, error: "" });
  });

  it("makes links absolute with PUBLIC_URL, the same way on every attempt", () => {
    const payload = {
      type: "speech.ready",
      timestamp: "t",
      data: { taskId: 1, links: { audio: "/voice_yuelu/tts/download?taskId=1" } },
    };
    expect(withAbsoluteLinks(payload, "https://yuelu.example/")).toEqual({
      ...payload,
      data: { taskId: 1, links: { audio: "https://yuelu.example/voice_yuelu/tts/download?taskId=1" } },
    });
    expect(withAbsoluteLinks(payload, undefined)).toBe(payload);
  });
});
