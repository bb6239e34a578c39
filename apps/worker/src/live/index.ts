import type { DomainContext } from "@yuelu/domain";
import { type EngineReport, type LiveConfig, liveTokenOf, loadLiveConfig } from "@yuelu/runtime";
import { MoonshineEngine } from "../engines/asr/moonshine.ts";
import { LiveHub } from "./hub.ts";
import { MoonshineLiveEngine } from "./moonshine-stream.ts";
import { type LiveServer, startLiveServer } from "./server.ts";
import type { LiveLog } from "./session.ts";
import { SherpaLiveEngine } from "./sherpa-stream.ts";

export interface LiveCaptions {
  hub: LiveHub;
  server: LiveServer;
  /** the heartbeat's kind "live" reports: what each language can do, and where the API connects */
  reports(): EngineReport[];
  close(): Promise<void>;
}

/**
 * Starts this worker's live captions (docs/live.md), unless LIVE_CAPTIONS=false or no token can be
 * had (then it says why and starts none): the worker trusts the API's word about whose stream it
 * decodes and whose time it charges, so every socket must carry LIVE_TOKEN — or, unset, the token
 * derived from the cookie secret the API signs with (`cookieSecret`: COOKIE_SECRET or the one
 * generated under DATA_DIR). `moonshine`: the batch engine already loaded, to share its model.
 */
export async function startLiveCaptions(options: {
  workerId: string;
  log: LiveLog;
  /** the business rules: the sessions' rows and their charges */
  domain: DomainContext;
  live?: LiveConfig;
  cookieSecret?: string;
  moonshine?: MoonshineEngine;
  /** tests: a quicker refresh of the sessions' rows */
  touchEveryMs?: number;
}): Promise<LiveCaptions | undefined> {
  const live = options.live ?? loadLiveConfig();
  if (!live.LIVE_CAPTIONS) return undefined;
  const token = live.LIVE_TOKEN ?? (options.cookieSecret ? liveTokenOf(options.cookieSecret) : undefined);
  if (!token) {
    options.log.error(
      {},
      "live captions are off: no LIVE_TOKEN and no cookie secret to derive it from (set COOKIE_SECRET, the same on the API)",
    );
    return undefined;
  }
  const engines = {
    en: new MoonshineLiveEngine(options.moonshine ?? new MoonshineEngine()),
    zh: new SherpaLiveEngine(live.LIVE_ZH_MODEL_DIR),
  };
  const hub = new LiveHub({
    workerId: options.workerId,
    maxSessions: live.LIVE_MAX_SESSIONS,
    maxPerUser: live.LIVE_MAX_PER_USER,
    catchUpSeconds: live.LIVE_CATCH_UP_SECONDS,
    engines,
    domain: options.domain,
    log: options.log,
    ...(options.touchEveryMs ? { touchEveryMs: options.touchEveryMs } : {}),
  });
  const server = await startLiveServer({
    hub,
    host: live.LIVE_HOST,
    port: live.LIVE_PORT,
    publicUrl: live.LIVE_PUBLIC_URL,
    token,
  });
  // The models are loaded by the first session that needs them (its first caption waits the ~0.5 s that
  // takes) and let go when no session has used them for ENGINE_IDLE_SECONDS: an idle worker holds none.
  for (const report of hub.reports()) {
    if (!report.available) {
      options.log.warn({ language: report.language }, `live captions (${report.language}): ${report.reason}`);
    }
  }
  options.log.info({ url: server.url, max: live.LIVE_MAX_SESSIONS }, "live captions listening");
  return {
    hub,
    server,
    reports: () =>
      hub.reports().map((r) => ({
        kind: "live" as const,
        language: r.language,
        engine: r.engine,
        available: r.available,
        ...(r.available ? {} : { problem: "model-missing" }),
        url: server.url,
        maxSessions: hub.maxSessions,
      })),
    close: () => server.close(),
  };
}
