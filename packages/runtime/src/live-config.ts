import { createHmac } from "node:crypto";
import path from "node:path";
import { z } from "zod";

/**
 * Live captions' settings (docs/live.md), read from the environment apart from config.ts so the
 * feature can be switched off or moved without touching the rest of the configuration.
 */
const LiveEnv = z.object({
  /** "false" turns live captions off on this worker (it then reports no live engine) */
  LIVE_CAPTIONS: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  /** the address the worker's live-caption server listens on (loopback unless the API runs elsewhere) */
  LIVE_HOST: z.string().min(1).default("127.0.0.1"),
  /** its port; 0 = any free port (the heartbeat tells the API which) */
  LIVE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** the URL the API should use when LIVE_HOST:port is not how it reaches this worker (NAT, a proxy) */
  LIVE_PUBLIC_URL: z.string().url().optional(),
  /**
   * Shared secret between API and workers, always required: the worker trusts the API to say which
   * user a stream belongs to (and whose time it charges). Unset: derived from the cookie secret —
   * COOKIE_SECRET, which every process of a multi-machine install shares, or on one machine the one
   * generated under DATA_DIR (liveTokenOf).
   */
  LIVE_TOKEN: z.string().min(16).optional(),
  COOKIE_SECRET: z.string().optional(),
  /** connected streams one worker decodes at once (sessions waiting for a resume do not count) */
  LIVE_MAX_SESSIONS: z.coerce.number().int().min(1).max(256).default(4),
  /** sessions one user may hold at once, open or waiting for a resume, across every node */
  LIVE_MAX_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * Audio a session may decode ahead of real time: the browser's catch-up buffer after an outage.
   * A session decodes at most (seconds since it started + this + a small slack) seconds of audio.
   * The default is what the browser keeps unacknowledged (contracts' LIVE_CLIENT_BUFFER_SECONDS).
   */
  LIVE_CATCH_UP_SECONDS: z.coerce.number().min(0).max(3600).default(120),
  /**
   * A streaming (online) sherpa-onnx transducer model for Chinese: a folder with encoder*.onnx,
   * decoder*.onnx, joiner*.onnx and tokens.txt (e.g. sherpa-onnx-streaming-zipformer-bilingual-zh-en).
   * Unset or missing: Chinese live captions are unavailable (the page says so).
   */
  LIVE_ZH_MODEL_DIR: z.string().min(1).optional(),
});

export type LiveConfig = Omit<z.infer<typeof LiveEnv>, "LIVE_ZH_MODEL_DIR" | "COOKIE_SECRET"> & {
  LIVE_ZH_MODEL_DIR?: string;
};

export function loadLiveConfig(env: NodeJS.ProcessEnv = process.env): LiveConfig {
  const { COOKIE_SECRET, ...parsed } = LiveEnv.parse(env);
  return {
    ...parsed,
    LIVE_TOKEN:
      parsed.LIVE_TOKEN ?? (COOKIE_SECRET && COOKIE_SECRET.length >= 32 ? liveTokenOf(COOKIE_SECRET) : undefined),
    LIVE_ZH_MODEL_DIR: parsed.LIVE_ZH_MODEL_DIR ? path.resolve(parsed.LIVE_ZH_MODEL_DIR) : undefined,
  };
}

/**
 * The live sockets' token made from a cookie secret (an HMAC, so the secret itself never travels).
 * The API derives it from the secret it signs cookies with, and so does a worker that has no
 * LIVE_TOKEN: the same COOKIE_SECRET, or on one machine the same generated file under DATA_DIR.
 */
export function liveTokenOf(cookieSecret: string): string {
  return createHmac("sha256", cookieSecret).update("yuelu live captions").digest("hex");
}

/** Whether a listen address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}
