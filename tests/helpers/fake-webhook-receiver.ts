import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One POST the fake receiver got. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  path: string;
}

/**
 * A webhook receiver on 127.0.0.1 for the tests (named as a fake): records every POST and answers
 * 200, or the statuses `answer` queued for its path. `verify` checks a request as a real integrator
 * would, with the standardwebhooks library.
 */
export class FakeWebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** per path: statuses to answer with, in order; 200 once spent */
  private readonly answers = new Map<string, number[]>();
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      this.received.push({ headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "/" });
      const status = this.answers.get(req.url ?? "/")?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "thanks" : `nope ${status}`);
    });
  });

  static async start(): Promise<FakeWebhookReceiver> {
    const receiver = new FakeWebhookReceiver();
    receiver.server.listen(0, "127.0.0.1");
    await once(receiver.server, "listening");
    return receiver;
  }

  /** The next requests to `path` get these statuses, in order. */
  answer(path: string, ...statuses: number[]): void {
    this.answers.set(path, [...(this.answers.get(path) ?? []), ...statuses]);
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The verified payload of a request; throws when its signature does not match `secret`. */
  verify(request: ReceivedWebhook, secret: string): { type: string; timestamp: string; data: Record<string, unknown> } {
    return new Webhook(secret).verify(request.body, request.headers) as never;
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
