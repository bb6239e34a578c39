import { OPENAI_VOICES, type OpenAiVoiceName } from "@yuelu/contracts";
import { AppError, type LibraryVoice, libraryVoices, listMyVoices } from "@yuelu/domain";
import { liveWorkers } from "@yuelu/runtime";
import { availabilityOf, listedEngines } from "../tts/engines.ts";
import { defaultVoiceOf, looksChinese, myVoiceFor, voiceFor } from "../tts/service.ts";
import type { OpenAiDeps } from "./deps.ts";

export interface SpeakingVoice {
  voice: LibraryVoice;
  /** one of the user's voices: `voice` is its base, and the work names it */
  userVoice?: { id: number; name: string };
}

const NO_SUCH_VOICE =
  "no such voice: an OpenAI voice (alloy, nova…), a library voice (promptId or name) or yours (my:<id> or its name)";

/** A 10002 about start_tts's voice fields renamed to /v1's `voice`. */
async function asVoiceField<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && (error.field === "promptId" || error.field === "myVoiceId")) {
      throw AppError.invalid("voice", error.reason);
    }
    throw error;
  }
}

/**
 * An OpenAI voice name as a library voice of the text's language (OPENAI_VOICES, docs/integrators.md).
 * With an OpenAI-compatible speech server configured, its own voice of that name comes first. A voice
 * no running worker can speak gives way to the language's default voice, so `alloy` still speaks on an
 * install without festival.
 */
async function openAiVoice(deps: OpenAiDeps, name: OpenAiVoiceName, text: string): Promise<LibraryVoice> {
  const language = looksChinese(text) ? "zh" : "en";
  const [voices, workers] = await Promise.all([
    libraryVoices(deps.db, { language, engines: listedEngines(deps.config) }),
    liveWorkers(deps.db),
  ]);
  const reporting = workers.some((w) => w.ttsEngines.length > 0);
  const speakable = (v: LibraryVoice | undefined) =>
    v && (!reporting || availabilityOf(workers, v.engine, v.language).available) ? v : undefined;
  const server = voices.find((v) => v.engine === "openai-compatible" && v.params.voice === name);
  const mapped = voices.find((v) => v.promptId === OPENAI_VOICES[name][language]);
  return speakable(server) ?? speakable(mapped) ?? defaultVoiceOf(deps, language);
}

/** "Sarah (natural)" answers to "Sarah" too. */
const namesOf = (v: LibraryVoice) => [v.name, v.nameEn, v.nameEn.replace(/\s*\(.*\)$/, "")].map((n) => n.toLowerCase());

/**
 * `voice` of /v1/audio/speech: one of the user's voices ("my:<id>", or its name), an OpenAI voice
 * name, or a library voice (its promptId, or its Chinese or English name).
 */
export async function speakingVoice(
  deps: OpenAiDeps,
  userId: number,
  asked: string,
  text: string,
): Promise<SpeakingVoice> {
  const mine = /^my:(\d{1,9})$/i.exec(asked);
  if (mine) return asVoiceField(myVoiceFor(deps, userId, Number(mine[1]), text));
  const own = (await listMyVoices(deps.db, userId)).find((v) => v.name === asked);
  if (own) return asVoiceField(myVoiceFor(deps, userId, own.id, text));

  const key = asked.toLowerCase();
  if (Object.hasOwn(OPENAI_VOICES, key)) return { voice: await openAiVoice(deps, key as OpenAiVoiceName, text) };

  if (/^\d{1,9}$/.test(asked)) return { voice: await asVoiceField(voiceFor(deps, Number(asked), text)) };
  const library = await libraryVoices(deps.db, { engines: listedEngines(deps.config) });
  const named = library.find((v) => namesOf(v).includes(key));
  if (!named) throw AppError.invalid("voice", NO_SUCH_VOICE);
  return { voice: await asVoiceField(voiceFor(deps, named.promptId, text)) };
}
