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
   * Shared secret between API and workers: required when LIVE_HOST is not loopback, since the worker
   * trusts the API to say which user a stream belongs to. Unset: derived from COOKIE_SECRET (which
   * every process of a multi-machine install shares), if that is set.
   */
  LIVE_TOKEN: z.string().min(16).optional(),
  COOKIE_SECRET: z.string().optional(),
  /** streams one worker decodes at once */
  LIVE_MAX_SESSIONS: z.coerce.number().int().min(1).max(256).default(4),
  /** streams one user may have open at once (per API process) */
  LIVE_MAX_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
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
      parsed.LIVE_TOKEN ??
      (COOKIE_SECRET && COOKIE_SECRET.length >= 32
        ? createHmac("sha256", COOKIE_SECRET).update("yuelu live captions").digest("hex")
        : undefined),
    LIVE_ZH_MODEL_DIR: parsed.LIVE_ZH_MODEL_DIR ? path.resolve(parsed.LIVE_ZH_MODEL_DIR) : undefined,
  };
}

/** Whether a listen address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}
