import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { MultipartFile } from "@fastify/multipart";
import { type Lang, SONG_REFUSAL_WORDS, StatusCode, statusMessage } from "@yuelu/contracts";
import { AppError, uploadExtension } from "@yuelu/domain";
import { type FileStore, localFileStore, withTempDir } from "@yuelu/runtime";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { z } from "zod";
import { formFileName } from "../records/names.ts";
import { assertCanProbe, type MediaTools } from "../records/probe.ts";
import { drain, probe, stage, UploadRefused } from "../records/upload.ts";

/**
 * The voice pages' uploads (docs/voice.md "Uploads"): a speech sample, a song, or a MIDI file, with
 * the call's fields in the query string or as multipart fields (before or after the file). The file
 * is staged on this machine, checked (the records feature's rules for audio: extension, signature,
 * ffprobe; a MIDI file's header), and only an accepted one reaches the file store. Whatever is refused
 * or interrupted leaves nothing behind.
 */

export interface VoiceUploadDeps {
  files: FileStore;
  log: FastifyBaseLogger;
  lang: Lang;
  tools: MediaTools;
  tmpDir?: string | undefined;
}

/** 20004 "File upload failed: <why>" for the voice pages' own reasons (length, MIDI). */
export class VoiceUploadRefused extends AppError {
  constructor(readonly why: Record<Lang, string>) {
    super(StatusCode.FileUploadFailed);
  }
  explain(lang: Lang): string {
    const sep = lang === "zh" ? "：" : ": ";
    return `${statusMessage(StatusCode.FileUploadFailed, lang).replace(/[.。]$/, "")}${sep}${this.why[lang]}`;
  }
}

export interface StagedUpload {
  /** the staged file on this machine */
  file: string;
  filename: string;
  ext: string;
  size: number;
}

export interface MediaRules {
  kind: "media";
  maxBytes: number;
  /** the longest file this call takes (seconds): the measure stops past it */
  maxSeconds: number;
  /** refuse when the probed length is outside these (seconds), with these words */
  check?: (seconds: number) => Record<Lang, string> | undefined;
}
export interface MidiRules {
  kind: "midi";
  maxBytes: number;
}

/**
 * Reads the multipart body: its fields, and its one file (named `fileField`) staged in `dir`.
 * Fields are validated with `schema` (10002 naming the field); a missing file answers 10002 unless
 * `optional`.
 */
export async function readVoiceUpload<S extends z.ZodType>(
  deps: VoiceUploadDeps,
  request: FastifyRequest,
  dir: string,
  options: { schema: S; fileField: string; rules: MediaRules | MidiRules; optional?: boolean },
): Promise<{ fields: z.infer<S>; staged?: StagedUpload; seconds?: number }> {
  const raw: Record<string, unknown> = { ...((request.query as Record<string, unknown>) ?? {}) };
  let staged: StagedUpload | undefined;
  if (request.isMultipart()) {
    if (options.rules.kind === "media") assertCanProbe(deps.lang, deps.tools);
    const parts = request.parts({ limits: { files: 1, fileSize: options.rules.maxBytes, fields: 30 } });
    for await (const part of parts) {
      if (part.type === "field") {
        if (typeof part.value === "string") raw[part.fieldname] = part.value;
        continue;
      }
      try {
        if (part.fieldname !== options.fileField)
          throw AppError.invalid(part.fieldname, "is not a file field of this call");
        staged = await stageFile(deps, part, dir, options.rules);
      } finally {
        await drain(part.file);
      }
    }
  } else if (request.body && typeof request.body === "object") {
    Object.assign(raw, request.body);
  }
  const parsed = options.schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw AppError.invalid(String(issue?.path[0] ?? "body"), issue?.message);
  }
  if (!staged && !options.optional) throw AppError.invalid(options.fileField, "is required");
  let seconds: number | undefined;
  if (staged && options.rules.kind === "media") {
    seconds = await measure(deps, staged.file, options.rules);
    const refusal = options.rules.check?.(seconds);
    if (refusal) throw new VoiceUploadRefused(refusal);
  }
  return { fields: parsed.data, staged, seconds };
}

/**
 * Seconds of audio in the staged file, measured no further than the rule's own limit (a long file is
 * refused without decoding all of it, in the rule's words).
 */
async function measure(deps: VoiceUploadDeps, file: string, rules: MediaRules): Promise<number> {
  try {
    return (await probe(file, deps.lang, deps.tools, rules.maxSeconds)).duration;
  } catch (error) {
    const tooLong = error instanceof UploadRefused && error.refusal === "too_long" && rules.check?.(Infinity);
    throw tooLong ? new VoiceUploadRefused(tooLong) : error;
  }
}

async function stageFile(
  deps: VoiceUploadDeps,
  part: MultipartFile,
  dir: string,
  rules: MediaRules | MidiRules,
): Promise<StagedUpload> {
  const filename = formFileName(part.filename);
  if (rules.kind === "midi") {
    const ext = filename.toLowerCase().endsWith(".midi")
      ? "midi"
      : filename.toLowerCase().endsWith(".mid")
        ? "mid"
        : "";
    if (!ext)
      throw new VoiceUploadRefused({ zh: "仅支持 .mid / .midi 文件", en: "only .mid or .midi files are accepted" });
    const { size } = await localFileStore(dir).put(`upload.${ext}`, part.file);
    if (part.file.truncated) throw new VoiceUploadRefused(SONG_REFUSAL_WORDS.midiTooLarge);
    const file = path.join(dir, `upload.${ext}`);
    const head = (await readFile(file)).subarray(0, 4).toString("latin1");
    if (head !== "MThd") throw new VoiceUploadRefused({ zh: "不是有效的 MIDI 文件", en: "it is not a MIDI file" });
    return { file, filename, ext, size };
  }
  const ext = uploadExtension(filename);
  if (!ext) throw new UploadRefused("extension");
  const staged = await stage(deps, part, dir, ext);
  return { file: staged.file, filename, ext, size: staged.size };
}

/** Puts the staged file in the store under a new key of the user's; 20002 when the store cannot take it. */
export async function storeUpload(deps: VoiceUploadDeps, userId: number, folder: string, staged: StagedUpload) {
  const key = `voice/${userId}/${folder}/${randomUUID()}.${staged.ext}`;
  try {
    await deps.files.putFile(key, staged.file);
  } catch (error) {
    deps.log.error({ err: error, key }, "could not store a voice upload");
    throw new AppError(StatusCode.FileSaveFailed);
  }
  return key;
}

export { withTempDir };
