import { type EngineReport, isLoopbackHost, type LiveConfig, loadLiveConfig } from "@yuelu/runtime";
import { MoonshineEngine } from "../engines/asr/moonshine.ts";
import { MoonshineLiveEngine } from "./moonshine-stream.ts";
import { type LiveServer, startLiveServer } from "./server.ts";
import { LiveHub, type LiveLog } from "./session.ts";
import { SherpaLiveEngine } from "./sherpa-stream.ts";

export interface LiveCaptions {
  hub: LiveHub;
  server: LiveServer;
  /** the heartbeat's kind "live" reports: what each language can do, and where the API connects */
  reports(): EngineReport[];
  close(): Promise<void>;
}

/**
 * Starts this worker's live captions (docs/live.md), unless LIVE_CAPTIONS=false or the listen
 * address is reachable from other machines without LIVE_TOKEN (then it says why and starts none).
 * `moonshine`: the batch engine already loaded, to share its model.
 */
export async function startLiveCaptions(options: {
  workerId: string;
  log: LiveLog;
  live?: LiveConfig;
  moonshine?: MoonshineEngine;
}): Promise<LiveCaptions | undefined> {
  const live = options.live ?? loadLiveConfig();
  if (!live.LIVE_CAPTIONS) return undefined;
  if (!isLoopbackHost(live.LIVE_HOST) && !live.LIVE_TOKEN) {
    options.log.error(
      { host: live.LIVE_HOST },
      "live captions are off: LIVE_HOST is reachable from other machines, so LIVE_TOKEN (the same on the API) is required",
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
    engines,
    log: options.log,
  });
  const server = await startLiveServer({
    hub,
    host: live.LIVE_HOST,
    port: live.LIVE_PORT,
    publicUrl: live.LIVE_PUBLIC_URL,
    token: live.LIVE_TOKEN,
  });
  for (const report of hub.reports()) {
    if (report.available) {
      // load the model now: the first caption must not wait for it
      engines[report.language].warm?.().catch((error) => {
        options.log.error({ err: error, language: report.language }, "live captions: could not load the model");
      });
      continue;
    }
    options.log.warn({ language: report.language }, `live captions (${report.language}): ${report.reason}`);
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
