import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import {
  decodeLiveFrame,
  fillTemplate,
  type Lang,
  LIVE_FRAME_MAX_BYTES,
  LiveCloseCode,
  type LiveWorkerReply,
  liveCloseCodeOf,
  type ParsedLiveWorkerHello,
  StatusCode,
  statusMessage,
  ZLiveStop,
  ZLiveWorkerHello,
} from "@yuelu/contracts";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import type { LiveHub } from "./hub.ts";
import type { LiveSession, LiveSink } from "./session.ts";

export interface LiveServer {
  /** how the API reaches this server: ws://host:port/live */
  url: string;
  /** the port it listens on (the launcher relays a sleeping worker's sockets to it) */
  port: number;
  close(): Promise<void>;
}

function tokenMatches(request: IncomingMessage, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? "");
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function bytesOf(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

type Greeting = { session: LiveSession } | { reply: LiveWorkerReply; code: number; reason: string };

/** `open`: a new session, or why not (unavailable, full, or refused by admission: docs/live.md "Metering"). */
async function openFor(hub: LiveHub, hello: Extract<ParsedLiveWorkerHello, { type: "open" }>): Promise<Greeting> {
  const opened = await hub.open(hello.userId, hello.language);
  if ("full" in opened) return { reply: { type: "full" }, code: LiveCloseCode.Unavailable, reason: "full" };
  if ("unavailable" in opened) {
    hub.log.info({ reason: opened.unavailable }, "live captions unavailable");
    return {
      reply: { type: "unavailable", language: hello.language, reason: opened.unavailable },
      code: LiveCloseCode.Unavailable,
      reason: "unavailable",
    };
  }
  if ("refused" in opened) {
    const code = opened.refused;
    return {
      reply: { type: "error", code, message: refusalMessage(code, hello.lang, hub.maxPerUser) },
      code: liveCloseCodeOf(code),
      reason: String(code),
    };
  }
  return { session: opened };
}

async function resumeOf(hub: LiveHub, hello: Extract<ParsedLiveWorkerHello, { type: "resume" }>): Promise<Greeting> {
  const session = await hub.resume(hello.userId, hello.sessionId);
  return session ? { session } : { reply: { type: "gone" }, code: LiveCloseCode.Gone, reason: "no such session" };
}

const TOO_MANY: Record<Lang, string> = {
  zh: "同时最多 {limit} 路实时字幕",
  en: "at most {limit} live captions at once",
};

/** A refused start, in the page's language. */
function refusalMessage(code: number, lang: Lang, maxPerUser: number): string {
  const message = statusMessage(code, lang);
  if (code !== StatusCode.TooManyRequests) return message;
  return `${message} (${fillTemplate(TOO_MANY[lang], { limit: maxPerUser })})`;
}

/** This machine's first non-loopback IPv4 address, else its name. */
function ownAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    const found = list?.find((a) => a.family === "IPv4" && !a.internal);
    if (found) return found.address;
  }
  return hostname();
}

/**
 * The worker's live-caption server (docs/live.md): a WebSocket endpoint only the API talks to. The
 * API's first message says whose stream it is (`open` or `resume`); then come the browser's frames
 * and its `stop`, relayed; every caption goes back on the same socket. A socket that closes without
 * `stop` leaves its session waiting for a resume.
 */
export async function startLiveServer(options: {
  hub: LiveHub;
  host: string;
  port: number;
  /** the URL to report instead of host:port */
  publicUrl?: string;
  /** required from the API as `Authorization: Bearer <token>`, always: the API's word decides whose time is charged */
  token: string;
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
    // a socket paused for backpressure is read again to close: else the API's reply to the close
    // frame would wait unread, and the close would take ws's 30 s timeout
    const close = (code: number, reason: string) => {
      socket.resume();
      socket.close(code, reason);
    };
    /** the API's `open` or `resume` is being answered: nothing else may come meanwhile */
    let greeting = false;
    const sink: LiveSink = {
      send: (message: LiveWorkerReply) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
      },
      close,
    };
    const refuse = (reply: LiveWorkerReply, code: number, reason: string) => {
      sink.send(reply);
      close(code, reason);
    };
    const greet = async (hello: ParsedLiveWorkerHello) => {
      const found = hello.type === "resume" ? await resumeOf(hub, hello) : await openFor(hub, hello);
      if ("reply" in found) return refuse(found.reply, found.code, found.reason);
      if (socket.readyState !== WebSocket.OPEN) {
        // the API hung up while the session was made: it waits for a resume like any dropped one
        found.session.attach(sink, hello.lang);
        found.session.detach(sink);
        return;
      }
      session = found.session;
      session.attach(sink, hello.lang);
    };

    const receive = (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        const frame = decodeLiveFrame(bytesOf(data));
        if (!session) return refuse({ type: "gone" }, LiveCloseCode.InvalidParams, "audio before ready");
        if (!frame) return refuse({ type: "gone" }, LiveCloseCode.InvalidParams, "malformed frame");
        // ended here (refused, replaced): the socket is closing; what still arrives is dropped, unpaused
        if (session.closed) return;
        if (session.accept(frame.offset, frame.pcm) === "gap") {
          return close(LiveCloseCode.InvalidParams, "a gap in the audio offsets");
        }
        if (session.saturated) {
          // backpressure: TCP slows the API, and the API the browser, until the decoder (or wall time) catches up
          socket.pause();
          session.onDrain = () => socket.resume();
        }
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytesOf(data).toString());
      } catch {
        return close(LiveCloseCode.InvalidParams, "not JSON");
      }
      if (!session) {
        const hello = ZLiveWorkerHello.safeParse(parsed);
        if (!hello.success || greeting) return close(LiveCloseCode.InvalidParams, "expected open or resume");
        greeting = true;
        greet(hello.data).catch((error) => {
          hub.log.error({ err: error }, "live captions: could not open a session");
          refuse(
            {
              type: "error",
              code: StatusCode.SystemError,
              message: statusMessage(StatusCode.SystemError, hello.data.lang),
            },
            LiveCloseCode.Unavailable,
            "failed",
          );
        });
        return;
      }
      if (ZLiveStop.safeParse(parsed).success) {
        const current = session;
        void current.stop().finally(() => close(LiveCloseCode.Done, "done"));
        return;
      }
      close(LiveCloseCode.InvalidParams, "unknown message");
    };
    socket.on("message", (data, isBinary) => {
      try {
        receive(data, isBinary);
      } catch (error) {
        // whatever a client sends must not take the worker (and every other stream on it) down
        hub.log.error({ err: error }, "live captions: a message could not be handled");
        close(1011, "failed");
      }
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
    port,
    async close() {
      await hub.close();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
