import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake voice server received: its path, bearer, JSON body or multipart fields and files. */
export interface Received {
  path: string;
  authorization?: string | undefined;
  json?: Record<string, unknown>;
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

/** Test double of a configured voice server (named as a fake): records every request, answers `answer`'s. */
export class FakeVoiceServer {
  readonly received: Received[] = [];
  /** statuses answered (with an error body) before the next normal answers */
  readonly failNext: number[] = [];
  private server: Server;

  constructor(answer: (got: Received) => Buffer | object) {
    this.server = createServer((req, res) => {
      void this.read(req).then(
        (got) => {
          this.received.push(got);
          const status = this.failNext.shift();
          if (status) {
            res.writeHead(status, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: { message: `fake says ${status}` } }));
            return;
          }
          const body = answer(got);
          const bytes = Buffer.isBuffer(body);
          res.writeHead(200, { "content-type": bytes ? "audio/wav" : "application/json" });
          res.end(bytes ? body : JSON.stringify(body));
        },
        (error: Error) => {
          res.writeHead(500);
          res.end(error.message);
        },
      );
    });
  }

  async start(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    this.server.close();
  }

  private async read(req: IncomingMessage): Promise<Received> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const type = req.headers["content-type"] ?? "";
    const got: Received = { path: req.url ?? "", authorization: req.headers.authorization, fields: {}, files: {} };
    if (type.startsWith("application/json")) got.json = JSON.parse(body.toString("utf8"));
    if (type.startsWith("multipart/form-data")) {
      const form = await new Response(body, { headers: { "content-type": type } }).formData();
      for (const [key, value] of form.entries()) {
        if (typeof value === "string") got.fields[key] = value;
        else got.files[key] = Buffer.from(await value.arrayBuffer());
      }
    }
    return got;
  }
}
