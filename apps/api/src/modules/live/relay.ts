import {
  type Lang,
  LiveCloseCode,
  type LiveLanguage,
  type LiveServerMessage,
  type LiveWorkerHello,
  type LiveWorkerReply,
  liveCloseCodeOf,
  StatusCode,
  statusMessage,
  ZLiveClientMessage,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { type LiveWorker, liveWorkers } from "@yuelu/runtime";
import WebSocket, { type RawData } from "ws";

/** Bytes waiting on one side before the other side stops being read (backpressure). */
const HIGH_WATER = 1 << 20;
const LOW_WATER = 256 << 10;
/** the client's `start`/`resume` must come this soon after connecting */
const HELLO_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5_000;

/** What the page is told, in its language, beside the catalogue code. */
const TEXTS = {
  noWorker: {
    zh: "没有正在运行的实时字幕服务",
    en: "no worker for live captions is running",
  },
  busy: {
    zh: "实时字幕服务繁忙，请稍后再试",
    en: "every live-caption worker is busy; try again shortly",
  },
  // users' words: which model the operator installs is in docs/live.md and the console
  zhModel: {
    zh: "暂不支持中文实时字幕",
    en: "Live captions for Chinese are not available yet",
  },
  enModel: {
    zh: "暂不支持英文实时字幕",
    en: "Live captions for English are not available yet",
  },
  gone: {
    zh: "实时字幕会话已结束，请重新开始",
    en: "the live-caption session has ended; start a new one",
  },
  lost: {
    zh: "与实时字幕服务的连接中断",
    en: "the connection to the live-caption worker was lost",
  },
} as const satisfies Record<string, Record<Lang, string>>;

export interface RelayDeps {
  db: Db;
  /** LIVE_TOKEN (or the one derived from the cookie secret): sent to the workers, which refuse sockets without it */
  token: string;
  log: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}

type Candidate = { worker: LiveWorker; url: string; language: "zh" | "en"; available: boolean };

/** Live-caption endpoints of running workers, by language. */
function candidates(workers: LiveWorker[]): Candidate[] {
  return workers.flatMap((worker) =>
    (worker.liveEngines ?? [])
      .filter((e) => e.url && (e.language === "zh" || e.language === "en"))
      .map((e) => ({ worker, url: e.url!, language: e.language as "zh" | "en", available: e.available })),
  );
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface Dialled {
  socket: WebSocket;
  reply: LiveWorkerReply;
  /** messages after the first, until `release` */
  early: RawData[];
  release(): void;
}

/** Opens a socket to a worker and sends `hello`; resolves with its first reply (or undefined: unreachable). */
async function dial(url: string, hello: LiveWorkerHello, token: string): Promise<Dialled | undefined> {
  const socket = new WebSocket(url, {
    headers: { authorization: `Bearer ${token}` },
    handshakeTimeout: CONNECT_TIMEOUT_MS,
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.terminate();
      resolve(undefined);
    }, CONNECT_TIMEOUT_MS * 2);
    socket.once("open", () => socket.send(JSON.stringify(hello)));
    socket.once("message", (data) => {
      clearTimeout(timer);
      try {
        const reply = JSON.parse(String(data)) as LiveWorkerReply;
        // what arrives before the relay takes over is kept for it, in order
        const early: RawData[] = [];
        const hold = (more: RawData) => early.push(more);
        socket.on("message", hold);
        resolve({ socket, reply, early, release: () => socket.off("message", hold) });
      } catch {
        socket.terminate();
        resolve(undefined);
      }
    });
    socket.once("error", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

/**
 * One browser's live-caption connection (docs/live.md): waits for its `start` or `resume`, finds a
 * worker that reported the live capability for the language (any with room; on resume, the one that
 * holds the session: its id starts with the worker's id), then relays both ways until either side
 * closes. The worker keeps the session through a dropped connection for the resume window. Whether
 * the user may have another session, and the time it costs, the worker decides with the database
 * (docs/live.md "Metering"): every API node and worker sees the same count.
 */
export class LiveRelays {
  constructor(private readonly deps: RelayDeps) {}

  handle(client: WebSocket, userId: number, lang: Lang) {
    const timer = setTimeout(
      () => client.close(LiveCloseCode.InvalidParams, "start or resume expected"),
      HELLO_TIMEOUT_MS,
    );
    client.once("close", () => clearTimeout(timer));
    const onFirst = (data: RawData, isBinary: boolean) => {
      if (isBinary) return; // audio before `ready`: the client resends it from `received`
      client.off("message", onFirst);
      clearTimeout(timer);
      let parsed: ReturnType<typeof ZLiveClientMessage.safeParse>;
      try {
        parsed = ZLiveClientMessage.safeParse(JSON.parse(String(data)));
      } catch {
        return client.close(LiveCloseCode.InvalidParams, "not JSON");
      }
      if (!parsed.success || parsed.data.type === "stop") {
        return refuse(
          client,
          StatusCode.InvalidParams,
          statusMessage(StatusCode.InvalidParams, lang, { field: "type" }),
          LiveCloseCode.InvalidParams,
        );
      }
      const first = parsed.data;
      // frames that arrive while the worker is being found are dropped: the client resends from `received`
      const opening =
        first.type === "start"
          ? this.open(client, userId, first.language, lang)
          : this.resume(client, userId, first.sessionId, lang);
      opening.catch((error) => {
        this.deps.log.warn({ err: error }, "live captions: relay failed");
        refuse(client, StatusCode.SystemError, statusMessage(StatusCode.SystemError, lang), 1011);
      });
    };
    client.on("message", onFirst);
  }

  private async open(client: WebSocket, userId: number, asked: LiveLanguage, lang: Lang) {
    const all = candidates(await liveWorkers(this.deps.db));
    const usable = (language: "zh" | "en") => all.filter((c) => c.language === language && c.available);
    // 'auto': Chinese where a streaming Chinese model runs (it hears English too), else English
    const language: "zh" | "en" = asked === "en" ? "en" : asked === "zh" ? "zh" : usable("zh").length ? "zh" : "en";
    const ready = usable(language);
    if (ready.length === 0) {
      if (all.some((c) => c.language === language)) {
        // workers run but lack the model: the page says what is needed
        const reason = language === "zh" ? TEXTS.zhModel[lang] : TEXTS.enModel[lang];
        send(client, { type: "unavailable", language: asked, reason });
        return client.close(LiveCloseCode.Unavailable, "unavailable");
      }
      return refuse(
        client,
        StatusCode.EngineUnavailable,
        statusMessage(StatusCode.EngineUnavailable, lang, { detail: TEXTS.noWorker[lang] }),
        LiveCloseCode.Unavailable,
      );
    }
    for (const candidate of shuffle(ready)) {
      if (client.readyState !== WebSocket.OPEN) return;
      const dialled = await dial(candidate.url, { type: "open", userId, language, lang }, this.deps.token);
      if (!dialled) {
        this.deps.log.warn({ url: candidate.url }, "live captions: a worker did not answer");
        continue;
      }
      if (dialled.reply.type === "full") {
        dialled.socket.close();
        continue;
      }
      return this.pipe(client, dialled, lang);
    }
    refuse(
      client,
      StatusCode.EngineUnavailable,
      statusMessage(StatusCode.EngineUnavailable, lang, { detail: TEXTS.busy[lang] }),
      LiveCloseCode.Unavailable,
    );
  }

  private async resume(client: WebSocket, userId: number, sessionId: string, lang: Lang) {
    const workerId = sessionId.split(".")[0];
    const found = candidates(await liveWorkers(this.deps.db)).find((c) => c.worker.workerId === workerId);
    const dialled = found
      ? await dial(found.url, { type: "resume", userId, sessionId, lang }, this.deps.token)
      : undefined;
    if (!dialled || dialled.reply.type === "gone") {
      dialled?.socket.close();
      return refuse(client, StatusCode.InvalidParams, TEXTS.gone[lang], LiveCloseCode.Gone);
    }
    this.pipe(client, dialled, lang);
  }

  /** Relays both ways; each side is read only while the other is not backed up. */
  private pipe(client: WebSocket, dialled: Dialled, lang: Lang) {
    const worker = dialled.socket;
    const forward = (reply: LiveWorkerReply) => {
      if (reply.type === "full" || reply.type === "gone") return;
      send(client, reply);
    };
    const relay = (data: RawData) => {
      try {
        forward(JSON.parse(String(data)) as LiveWorkerReply);
      } catch {
        // a worker sends JSON only
      }
      if (client.bufferedAmount > HIGH_WATER) throttle(worker, client);
    };
    dialled.release();
    if (dialled.reply.type === "unavailable") {
      // the worker's reason is for its log (it may name a variable or a path): the page reads ours
      const reason = dialled.reply.language === "en" ? TEXTS.enModel[lang] : TEXTS.zhModel[lang];
      forward({ ...dialled.reply, reason });
      worker.close();
      client.close(LiveCloseCode.Unavailable, "unavailable");
      return;
    }
    forward(dialled.reply);
    if (dialled.reply.type === "error") {
      // refused by the worker: too many sessions for this user (10003), no time left (50002, 20001)
      worker.close();
      client.close(liveCloseCodeOf(dialled.reply.code), String(dialled.reply.code));
      return;
    }
    for (const data of dialled.early) relay(data);
    if (client.readyState !== WebSocket.OPEN) {
      worker.close(1001, "client gone");
      return;
    }
    worker.on("message", relay);
    client.on("message", (data, isBinary) => {
      if (worker.readyState !== WebSocket.OPEN) return;
      if (isBinary) {
        worker.send(data, { binary: true });
        if (worker.bufferedAmount > HIGH_WATER) throttle(client, worker);
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(String(data));
      } catch {
        return client.close(LiveCloseCode.InvalidParams, "not JSON");
      }
      const parsed = ZLiveClientMessage.safeParse(message);
      if (parsed.success && parsed.data.type === "stop") worker.send(JSON.stringify(parsed.data));
      else client.close(LiveCloseCode.InvalidParams, "unexpected message");
    });
    client.on("close", () => {
      // the session stays on the worker for a resume (unless it just finished)
      if (worker.readyState === WebSocket.OPEN || worker.readyState === WebSocket.CONNECTING)
        worker.close(1001, "client gone");
    });
    worker.on("close", (code, reason) => {
      if (client.readyState !== WebSocket.OPEN) return;
      if (code === LiveCloseCode.Done) return client.close(LiveCloseCode.Done, "done");
      if (code >= 4000 && code < 5000) return client.close(code, String(reason));
      // the worker went away mid-stream: the client tries to resume (and starts anew if the session is gone)
      send(client, {
        type: "error",
        code: StatusCode.EngineUnavailable,
        message: statusMessage(StatusCode.EngineUnavailable, lang, { detail: TEXTS.lost[lang] }),
      });
      client.close(1011, "worker lost");
    });
    worker.on("error", () => {});
    client.on("error", () => {});
  }
}

function send(socket: WebSocket, message: LiveServerMessage) {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function refuse(socket: WebSocket, code: number, message: string, closeCode: number) {
  send(socket, { type: "error", code, message });
  socket.close(closeCode, `${code}`);
}

/**
 * Stops reading `from` until `to` has sent most of what waits. A closing `from` is read again too:
 * its close handshake needs the other side's close frame (else ws waits 30 s for it).
 */
function throttle(from: WebSocket, to: WebSocket) {
  if (from.isPaused) return;
  from.pause();
  const timer = setInterval(() => {
    if (to.readyState !== WebSocket.OPEN || to.bufferedAmount < LOW_WATER || from.readyState !== WebSocket.OPEN) {
      clearInterval(timer);
      if (from.readyState !== WebSocket.CLOSED) from.resume();
    }
  }, 50);
  timer.unref();
}
