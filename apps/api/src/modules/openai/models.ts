import {
  OPENAI_SPEECH_ALIASES,
  OPENAI_TRANSCRIPTION_ALIASES,
  type OpenAiModel,
  type OpenAiModelList,
  type TtsEngineName,
} from "@yuelu/contracts";
import { type EngineReport, liveWorkers } from "@yuelu/runtime";
import { listedEngines } from "../tts/engines.ts";
import type { OpenAiDeps } from "./deps.ts";

/** OpenAI's model objects carry a creation time; ours are the install's engines: one fixed date (2025-01-01). */
const CREATED = 1_735_689_600;

/** Engines some live worker can use now; with none reporting, the configured ones. */
function usable(reports: EngineReport[], configured: readonly string[]): string[] {
  if (reports.length === 0) return [...configured];
  return reports.filter((r) => r.available && r.engine !== "none").map((r) => r.engine);
}

/**
 * GET /v1/models: OpenAI's names (whisper-1, tts-1…, which mean "the install's engine") and the engines
 * this install can use now: the speech recognition and text-to-speech engines its running workers
 * report ready (with no worker running, the configured ones).
 */
export async function modelList(deps: Pick<OpenAiDeps, "db" | "config">): Promise<OpenAiModelList> {
  const workers = await liveWorkers(deps.db);
  const { config } = deps;
  const ids = [
    ...OPENAI_TRANSCRIPTION_ALIASES,
    ...usable(
      workers.flatMap((w) => w.engines),
      [config.ASR_ENGINE_ZH, config.ASR_ENGINE_EN],
    ),
    ...OPENAI_SPEECH_ALIASES,
    ...usable(
      workers.flatMap((w) => w.ttsEngines).filter((r) => listedEngines(config).includes(r.engine as TtsEngineName)),
      listedEngines(config),
    ),
  ];
  const data = [...new Set(ids)].map(
    (id): OpenAiModel => ({ id, object: "model", created: CREATED, owned_by: "yuelu" }),
  );
  return { object: "list", data };
}
