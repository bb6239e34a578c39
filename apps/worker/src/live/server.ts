import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import {
  decodeLiveFrame,
  LIVE_FRAME_MAX_BYTES,
  LiveCloseCode,
  type LiveWorkerReply,
  ZLiveStop,
  ZLiveWorkerHello,
} from "@yuelu/contracts";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import type { LiveHub, LiveSession, LiveSink } from "./session.ts";

export interface LiveServer {
  /** how the API reaches this server: ws://host:port/live */
  url: string;
  close(): Promise<void>;
}

function tokenMatches(request: IncomingMessage, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(request.headers.authorization ?? "");
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function bytesOf(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/**
 * The worker's live-caption server (docs/live.md): a WebSocket endpoint only the API talks to. The
 * API's first message says whose stream it is (`open` or `resume`); then come the browser's frames
 * and its `stop`, relayed; every caption goes back on the same socket. A socket that closes without
 * `stop` leaves its session waiting for a resume.
 */
/** This machine's first non-loopback IPv4 address, else its name. */
function ownAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    const found = list?.find((a) => a.family === "IPv4" && !a.internal);
    if (found) return found.address;
  }
  return hostname();
}

export async function startLiveServer(options: {
  hub: LiveHub;
  host: string;
  port: number;
  /** the URL to report instead of host:port */
  publicUrl?: string;
  /** required from the API as `Authorization: Bearer <token>` when set */
  token?: string;
}): Promise<LiveServer> {
  const { hub } = options;
  const http = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" }).end("WebSocket only");
  });
  const wss = new WebSocketServer({
    server: http,
    path: "/live",
    maxPayload: LIVE_FRAME_MAX_BYTES + 1024,
    verifyClient: ({ req }, done) => done(tokenMatches(req, options.token), 401, "bad live token"),
  });

  wss.on("connection", (socket) => {
    let session: LiveSession | undefined;
    const sink: LiveSink = (message: LiveWorkerReply) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const refuse = (reply: LiveWorkerReply, code: number, reason: string) => {
      sink(reply);
      socket.close(code, reason);
    };

    socket.on("message", (data, isBinary) => {
      if (isBinary) {
        const frame = decodeLiveFrame(bytesOf(data));
        if (!session) return refuse({ type: "gone" }, LiveCloseCode.InvalidParams, "audio before start");
        if (!frame) return refuse({ type: "gone" }, LiveCloseCode.InvalidParams, "malformed frame");
        if (session.accept(frame.offset, frame.pcm) === "gap") {
          return socket.close(LiveCloseCode.InvalidParams, "a gap in the audio offsets");
        }
        if (session.saturated) {
          // backpressure: TCP slows the API, and the API the browser, until the decoder catches up
          socket.pause();
          session.onDrain = () => socket.resume();
        }
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytesOf(data).toString());
      } catch {
        return socket.close(LiveCloseCode.InvalidParams, "not JSON");
      }
      if (!session) {
        const hello = ZLiveWorkerHello.safeParse(parsed);
        if (!hello.success) return socket.close(LiveCloseCode.InvalidParams, "expected open or resume");
        if (hello.data.type === "resume") {
          session = hub.find(hello.data.userId, hello.data.sessionId);
          if (!session) return refuse({ type: "gone" }, LiveCloseCode.Gone, "no such session");
        } else {
          const opened = hub.open(hello.data.userId, hello.data.language);
          if ("full" in opened) return refuse({ type: "full" }, LiveCloseCode.Unavailable, "full");
          if ("unavailable" in opened) {
            hub.log.info({ reason: opened.unavailable }, "live captions unavailable");
            return refuse(
              { type: "unavailable", language: hello.data.language, reason: opened.unavailable },
              LiveCloseCode.Unavailable,
              "unavailable",
            );
          }
          session = opened;
        }
        session.attach(sink);
        return;
      }
      if (ZLiveStop.safeParse(parsed).success) {
        const current = session;
        void current.stop().finally(() => socket.close(LiveCloseCode.Done, "done"));
        return;
      }
      socket.close(LiveCloseCode.InvalidParams, "unknown message");
    });
    socket.on("close", () => session?.detach(sink));
    socket.on("error", () => {});
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  // a wildcard address is reached by this machine's own address (a container's name may not resolve)
  const host = options.host === "0.0.0.0" || options.host === "::" ? ownAddress() : options.host;
  const url = options.publicUrl ?? `ws://${host.includes(":") ? `[${host}]` : host}:${port}/live`;
  return {
    url,
    async close() {
      hub.close();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
