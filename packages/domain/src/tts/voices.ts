import { createHash } from "node:crypto";
import type { TtsEngineName, TtsLanguage, VoiceAgeGroup, VoiceGender, VoiceStyle } from "@yuelu/contracts";
import { type Db, likeLiteral } from "@yuelu/db";

/** The voice library (docs/tts.md "Voice library"): the seeded catalogue, read. */

export interface LibraryVoice {
  promptId: number;
  slug: string;
  name: string;
  nameEn: string;
  language: TtsLanguage;
  gender: VoiceGender;
  ageGroup: VoiceAgeGroup;
  style: VoiceStyle;
  engine: TtsEngineName;
  params: Record<string, unknown>;
  sampleText: string;
  sort: number;
}

export interface VoiceFilter {
  language?: string;
  gender?: string;
  ageGroup?: string;
  style?: string;
  engine?: string;
  keyword?: string;
  /** only voices of these engines (the ones this install has configured) */
  engines?: readonly string[];
}

const SELECT = {
  promptId: true,
  slug: true,
  name: true,
  nameEn: true,
  language: true,
  gender: true,
  ageGroup: true,
  style: true,
  engine: true,
  params: true,
  sampleText: true,
  sort: true,
} as const;

type Row = { params: unknown } & {
  [K in Exclude<keyof LibraryVoice, "params">]: LibraryVoice[K] extends number ? number : string;
};

function voiceOf(row: Row): LibraryVoice {
  const params =
    row.params && typeof row.params === "object" && !Array.isArray(row.params)
      ? (row.params as Record<string, unknown>)
      : {};
  return { ...row, params } as LibraryVoice;
}

/** The enabled voices matching `filter`, in the catalogue's order (language, sort, id). */
export async function libraryVoices(db: Db, filter: VoiceFilter = {}): Promise<LibraryVoice[]> {
  const keyword = filter.keyword?.trim();
  const rows = await db.voiceLibraryItem.findMany({
    where: {
      enabled: true,
      ...(filter.language ? { language: filter.language } : {}),
      ...(filter.gender ? { gender: filter.gender } : {}),
      ...(filter.ageGroup ? { ageGroup: filter.ageGroup } : {}),
      ...(filter.style ? { style: filter.style } : {}),
      ...(filter.engine || filter.engines
        ? {
            engine: {
              in: (filter.engines ?? [filter.engine!]).filter((e) => !filter.engine || e === filter.engine),
            },
          }
        : {}),
      ...(keyword
        ? {
            OR: [
              { name: { contains: likeLiteral(keyword), mode: "insensitive" as const } },
              { nameEn: { contains: likeLiteral(keyword), mode: "insensitive" as const } },
            ],
          }
        : {}),
    },
    orderBy: [{ language: "desc" }, { sort: "asc" }, { promptId: "asc" }],
    select: SELECT,
  });
  return rows.map(voiceOf);
}

/** An enabled voice of the library, or null. */
export async function findVoice(db: Db, promptId: number): Promise<LibraryVoice | null> {
  const row = await db.voiceLibraryItem.findFirst({ where: { promptId, enabled: true }, select: SELECT });
  return row ? voiceOf(row) : null;
}

/** JSON with sorted keys, so equal parameters always hash alike. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Bump when the sample pipeline changes in a way that should regenerate every stored sample. */
const SAMPLE_PIPELINE_VERSION = 1;

/**
 * The version of a voice's sample: a hash of what it sounds like (engine, language, parameters) and
 * what it says. Editing any of them gives a new version, so the next try_listen makes a new sample.
 */
export function sampleVersion(voice: Pick<LibraryVoice, "engine" | "language" | "params" | "sampleText">): string {
  const source = stable({
    v: SAMPLE_PIPELINE_VERSION,
    engine: voice.engine,
    language: voice.language,
    params: voice.params,
    text: voice.sampleText,
  });
  return createHash("sha256").update(source).digest("hex").slice(0, 16);
}

/** Where a voice's current sample lives in the file store. */
export function sampleKey(voice: Pick<LibraryVoice, "promptId" | "engine" | "language" | "params" | "sampleText">) {
  return `tts/samples/${voice.promptId}-${sampleVersion(voice)}.mp3`;
}
