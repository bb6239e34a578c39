import {
  OPENAI_SPEECH_ALIASES,
  OPENAI_TRANSCRIPTION_ALIASES,
  type OpenAiModel,
  type OpenAiModelList,
} from "@yuelu/contracts";
import { liveWorkers } from "@yuelu/runtime";
import { listedEngines } from "../tts/engines.ts";
import type { OpenAiDeps } from "./deps.ts";
import { asrEngines } from "./transcription-plan.ts";

/** OpenAI's model objects carry a creation time; ours are the install's engines: one fixed date (2025-01-01). */
const CREATED = 1_735_689_600;

/**
 * GET /v1/models: OpenAI's names (whisper-1, tts-1…, which mean "the install's engine") and the
 * engines this install has: its configured speech recognition engines and any a live worker reports,
 * and the text-to-speech engines whose voices the library lists.
 */
export async function modelList(deps: Pick<OpenAiDeps, "db" | "config">): Promise<OpenAiModelList> {
  const workers = await liveWorkers(deps.db);
  const ids = [
    ...OPENAI_TRANSCRIPTION_ALIASES,
    ...asrEngines(deps.config, workers),
    ...OPENAI_SPEECH_ALIASES,
    ...listedEngines(deps.config),
  ];
  const data = [...new Set(ids)].map(
    (id): OpenAiModel => ({ id, object: "model", created: CREATED, owned_by: "yuelu" }),
  );
  return { object: "list", data };
}
