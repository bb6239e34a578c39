import { Readable } from "node:stream";
import { type BatchDownloadInclude, type BatchTranscriptFormat, type Lang, StatusCode } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError, visibleRecord, visibleRecords } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { FastifyBaseLogger } from "fastify";
import { ZipFile } from "yazl";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { type Download, type RangeRequest, serveStored } from "../../lib/stored-file.ts";
import { exportTodos } from "../notes/service.ts";
import { baseName, toDocx, toSrt, toTxt } from "../transcript/exports.ts";
import { forReader, ownedTranscript } from "../transcript/service.ts";
import { mimeOf, uniqueNames, zipEntryName } from "./names.ts";

/**
 * GET /api/v3/audio/download: the original file, whole or one byte range (so `<audio>`/`<video>`
 * can seek), inline or as an attachment named after the record (UTF-8, RFC 5987).
 */
export async function openDownload(
  db: Db,
  files: FileStore,
  userId: number,
  query: { fileId: number; inline: boolean },
  request: RangeRequest,
): Promise<Download> {
  const record = await visibleRecord(db, userId, query.fileId);
  const size = await files.size(record.storageKey);
  return serveStored(files, record.storageKey, request, {
    "content-type": mimeOf(record.format),
    "content-disposition": contentDisposition(record.fileName, query.inline),
    "cache-control": "private, max-age=0, must-revalidate",
    etag: `"${record.fileId}-${size ?? 0}-${record.createdAt.getTime().toString(36)}"`,
    "last-modified": record.createdAt.toUTCString(),
  });
}

/** What a batch download needs besides the store: the reader's language and time zone (transcripts name speakers in it). */
export interface ZipDeps {
  db: Db;
  files: FileStore;
  log: FastifyBaseLogger;
  lang: Lang;
  timeZone: string;
}

/** The note a zip of transcripts carries for the records it has none for (they were never transcribed). */
const NOTE = {
  zh: { name: "未转写的记录.txt", head: "以下记录还没有转写，压缩包中没有它们的文稿：" },
  en: {
    name: "not-transcribed.txt",
    head: "These records have not been transcribed, so this archive has no transcript of them:",
  },
} as const;

/** One file of a transcript, built as the single-record exports build it (transcript/exports.ts). */
async function transcriptFile(
  deps: ZipDeps,
  userId: number,
  fileId: number,
  format: BatchTranscriptFormat,
): Promise<Buffer> {
  const { db, lang } = deps;
  const t = forReader(await ownedTranscript(db, userId, fileId), lang);
  const options = { withSpeaker: true, withTime: true };
  if (format === "srt") return Buffer.from(toSrt(t.segments, options), "utf8");
  const todos = await exportTodos(db, userId, fileId, t.segments);
  if (format === "txt") return Buffer.from(toTxt(t.segments, options, { items: todos, lang }), "utf8");
  const meta = {
    title: baseName(t.fileName),
    timeLen: t.timeLen,
    updatedAt: t.updatedAt,
    timeZone: deps.timeZone,
    lang,
  };
  return toDocx(meta, t.segments, t.abstracts, options, todos);
}

/**
 * download/batch: a zip, streamed as it is built, of the records' original files (`include` audio, the
 * default), their transcripts (`transcript`, as `format` txt, docx or srt — what the single-record exports
 * make, speakers named in the reader's language) or both, side by side ("周会.mp3", "周会.txt"). Names are
 * made unique inside the archive. Every id must be a visible record of the user's (30001) whose file exists
 * when the audio is asked for (20003), or nothing is sent. A record never transcribed has no transcript
 * entry: a note file (in the reader's language) lists those. Media is stored, not deflated (it is already
 * compressed); text is deflated. With transcripts the archive's length is not known in advance (no
 * Content-Length); each is built when its turn in the stream comes, one at a time.
 */
export async function openZip(
  deps: ZipDeps,
  userId: number,
  query: { fileIds: number[]; include?: BatchDownloadInclude; format?: BatchTranscriptFormat },
  now = new Date(),
): Promise<Download> {
  const { db, files, log } = deps;
  const include = query.include ?? "audio";
  const format = query.format ?? "txt";
  const records = await visibleRecords(db, userId, query.fileIds);
  const withAudio = include !== "transcript";
  const withText = include !== "audio";
  const sizes = withAudio ? await Promise.all(records.map((r) => files.size(r.storageKey))) : [];
  if (sizes.some((s) => s === null)) throw new AppError(StatusCode.FileNotFound);
  const transcribed = new Set(
    withText
      ? (
          await db.transcript.findMany({
            where: { fileId: { in: records.map((r) => r.fileId) } },
            select: { fileId: true },
          })
        ).map((row) => row.fileId)
      : [],
  );

  type Entry = { name: string; add: (name: string) => void };
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const fail = (err: Error) => {
    log.error({ err }, "batch download failed while streaming");
    output.destroy(err);
  };
  zip.on("error", fail);
  const entries: Entry[] = [];
  const untranscribed: string[] = [];
  records.forEach((record, i) => {
    if (withAudio) {
      entries.push({
        name: zipEntryName(record.fileName),
        add: (name) =>
          zip.addReadStreamLazy(name, { mtime: record.createdAt, compress: false, size: sizes[i]! }, (callback) => {
            files.read(record.storageKey).then(
              (stream) => {
                stream.on("error", fail);
                callback(null, stream);
              },
              (err: Error) => callback(err, undefined as unknown as Readable),
            );
          }),
      });
    }
    if (!withText) return;
    if (!transcribed.has(record.fileId)) {
      untranscribed.push(record.fileName);
      return;
    }
    entries.push({
      name: `${baseName(record.fileName)}.${format}`,
      add: (name) =>
        // docx is a zip already: stored as it is
        zip.addReadStreamLazy(name, { mtime: now, compress: format !== "docx" }, (callback) => {
          transcriptFile(deps, userId, record.fileId, format).then(
            (body) => callback(null, Readable.from([body])),
            (err: Error) => callback(err, undefined as unknown as Readable),
          );
        }),
    });
  });
  if (untranscribed.length > 0) {
    const note = NOTE[deps.lang];
    const text = Buffer.from(`${note.head}\n${untranscribed.map((n) => `- ${n}`).join("\n")}\n`, "utf8");
    entries.push({ name: note.name, add: (name) => zip.addBuffer(text, name, { mtime: now, compress: false }) });
  }
  const names = uniqueNames(entries.map((e) => e.name));
  for (const [i, entry] of entries.entries()) entry.add(names[i]!);

  // When every entry's size is known and stored as is (the originals, the note), yazl computes the archive's
  // size at end() (synchronously); a transcript's size is known only once it is built.
  let total = -1;
  const sized = (bytes: number) => {
    total = bytes;
  };
  zip.end({ forceZip64Format: false, comment: "" }, sized as () => void);
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return {
    status: 200,
    headers: {
      "content-type": "application/zip",
      "content-disposition": contentDisposition(`records-${stamp}.zip`),
      "cache-control": "private, no-store",
      ...(total >= 0 ? { "content-length": String(total) } : {}),
    },
    body: output,
  };
}
