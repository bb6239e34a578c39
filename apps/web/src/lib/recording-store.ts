import { type DBSchema, type IDBPDatabase, openDB } from "idb";

/**
 * Browser recordings kept on disk as they are made (IndexedDB, through `idb`): each chunk
 * MediaRecorder hands over is written at once, so a reload, a crash or a closed tab loses at most the
 * last second, and a 2-hour recording never sits in memory. A recording stays here until the server
 * confirms its record; /transaudio offers the ones left behind back ("Recover unsaved recording").
 */
export interface StoredRecording {
  id: string;
  /** the signed-in user who made it: another user of the browser never sees it */
  userId: string;
  fileName: string;
  mimeType: string;
  /** epoch ms; also the File's lastModified, so an upload of it resumes after a reload */
  startedAt: number;
  /** ms of audio written so far */
  durationMs: number;
  bytes: number;
  chunks: number;
  /** the tus upload that carries it while it is recorded (issue 31): a recovery goes on from the server's offset */
  uploadUrl?: string;
  /** the recorder stopped: no byte will be added */
  finished?: boolean;
}

interface RecordingDb extends DBSchema {
  recordings: { key: string; value: StoredRecording; indexes: { byUser: string } };
  chunks: { key: [string, number]; value: { recordingId: string; seq: number; data: Blob } };
}

const DB_NAME = "yuelu-recordings";
let opening: Promise<IDBPDatabase<RecordingDb>> | null = null;

/** Whether this browser can keep recordings (IndexedDB exists: not in some private modes or tests). */
export function canKeepRecordings(): boolean {
  return typeof indexedDB !== "undefined";
}

function db(): Promise<IDBPDatabase<RecordingDb>> {
  opening ??= openDB<RecordingDb>(DB_NAME, 1, {
    upgrade(database) {
      const recordings = database.createObjectStore("recordings", { keyPath: "id" });
      recordings.createIndex("byUser", "userId");
      database.createObjectStore("chunks", { keyPath: ["recordingId", "seq"] });
    },
  });
  return opening;
}

export async function beginRecording(recording: Omit<StoredRecording, "durationMs" | "bytes" | "chunks">) {
  await (await db()).put("recordings", { ...recording, durationMs: 0, bytes: 0, chunks: 0 });
}

/** Stores chunk `seq` and the recording's new length, in one transaction. */
export async function appendChunk(id: string, seq: number, data: Blob, durationMs: number): Promise<void> {
  const tx = (await db()).transaction(["recordings", "chunks"], "readwrite");
  const recording = await tx.objectStore("recordings").get(id);
  if (!recording) return tx.done; // discarded meanwhile
  await tx.objectStore("chunks").put({ recordingId: id, seq, data });
  await tx.objectStore("recordings").put({
    ...recording,
    durationMs: Math.max(recording.durationMs, durationMs),
    bytes: recording.bytes + data.size,
    chunks: Math.max(recording.chunks, seq + 1),
  });
  await tx.done;
}

/** Updates a recording's facts (its upload's URL, that it is finished); a discarded one stays discarded. */
async function amend(id: string, change: Partial<Pick<StoredRecording, "uploadUrl" | "finished">>): Promise<void> {
  const tx = (await db()).transaction("recordings", "readwrite");
  const recording = await tx.store.get(id);
  if (recording) await tx.store.put({ ...recording, ...change });
  await tx.done;
}

export const setRecordingUploadUrl = (id: string, uploadUrl: string) => amend(id, { uploadUrl });
export const finishRecording = (id: string) => amend(id, { finished: true });

export async function storedRecording(id: string): Promise<StoredRecording | undefined> {
  return (await db()).get("recordings", id);
}

/**
 * Bytes [start, end) of the recording as written so far: the chunks that hold them, read from disk as Blobs
 * (only their handles are in memory), sliced.
 */
export async function recordingBytes(id: string, start: number, end: number): Promise<Blob> {
  const range = IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);
  const parts: Blob[] = [];
  /** where the first kept chunk begins in the recording */
  let first = -1;
  let at = 0;
  let cursor = await (await db()).transaction("chunks").store.openCursor(range);
  while (cursor && at < end) {
    const data = cursor.value.data;
    if (at + data.size > start) {
      if (first < 0) first = at;
      parts.push(data);
    }
    at += data.size;
    cursor = await cursor.continue();
  }
  if (first < 0) return new Blob([]);
  return new Blob(parts).slice(start - first, end - first);
}

/** The user's recordings not yet confirmed by the server, oldest first (empty ones are dropped). */
export async function keptRecordings(userId: string): Promise<StoredRecording[]> {
  const all = await (await db()).getAllFromIndex("recordings", "byUser", userId);
  const empty = all.filter((r) => r.bytes === 0);
  for (const r of empty) await forgetRecording(r.id);
  return all.filter((r) => r.bytes > 0).sort((a, b) => a.startedAt - b.startedAt);
}

/** The recording as a File: its chunks, in order (the browser keeps the data on disk, not in memory). */
export async function recordingFile(recording: StoredRecording): Promise<File> {
  const range = IDBKeyRange.bound([recording.id, 0], [recording.id, Number.MAX_SAFE_INTEGER]);
  const chunks = await (await db()).getAll("chunks", range);
  const parts = chunks.sort((a, b) => a.seq - b.seq).map((c) => c.data);
  return new File(parts, recording.fileName, { type: recording.mimeType, lastModified: recording.startedAt });
}

export async function forgetRecording(id: string): Promise<void> {
  const tx = (await db()).transaction(["recordings", "chunks"], "readwrite");
  await tx.objectStore("chunks").delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
  await tx.objectStore("recordings").delete(id);
  await tx.done;
}
