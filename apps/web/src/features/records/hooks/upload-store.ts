import type { UploadResult } from "@yuelu/contracts";
import { ApiError } from "@/lib/api-client.ts";
import { setBusy } from "@/lib/busy.ts";
import { createStore, useStore } from "@/lib/create-store.ts";
import { readMediaDuration } from "@/lib/media-duration.ts";
import { setRecordingUploadUrl } from "@/lib/recording-store.ts";
import { UploadAborted } from "@/lib/upload-form.ts";
import type { ChosenOptions } from "../api/start-dictation.ts";
import { type UploadHandle, uploadFile } from "../api/upload-file.ts";
import { checkDuration, checkUpload, newUploadId, type UploadRefusal } from "../lib/upload-rules.ts";

export type UploadStatus = "uploading" | "done" | "failed" | "canceled";

/**
 * A transcription asked for before the upload was done ("stop and transcribe"): the settings chosen then,
 * sent as soon as the record exists; `requested` while that call is on its way.
 */
export interface AutoTranscribe {
  options: ChosenOptions;
  hotWords: string[];
  requested?: boolean;
}

export interface UploadItem {
  /** the client uploadId: the same on every retry, so a retry after a lost answer is safe */
  id: string;
  file: File;
  menuId: string | null;
  status: UploadStatus;
  loaded: number;
  total: number;
  /** seconds, as the browser read them before the upload (null: it could not) */
  duration: number | null;
  error?: string;
  /** percent of the file the server already held when this upload went on (after a reload, a cancel…) */
  resumedAt?: number;
  record?: UploadResult;
  /** sent for transcription from /transaudio */
  submitted?: boolean;
  /** to be transcribed once uploaded, with these settings (then `submitted`; cleared if refused) */
  autoTranscribe?: AutoTranscribe;
  /** a browser recording (its IndexedDB id): uploaded while it is made, its local copy kept until confirmed */
  recordingId?: string;
  /** still being recorded: `file` is only its name and type, and `total` is unknown (0) */
  live?: boolean;
  /** the recording's tus upload: a retry or a later finish goes on from the server's offset */
  uploadUrl?: string;
  /**
   * a recording's live-caption sessions (docs/live.md "Metering"), sent with its upload so its
   * transcription is not charged again for them; a promise while the first is not known yet
   */
  liveSessionId?: string | Promise<string | undefined>;
}

export interface Refusal {
  name: string;
  reason: UploadRefusal;
  /** the length the browser read (seconds), when that is why */
  duration?: number;
  /** the file itself, when the user may still upload it (overTranscribeLimit) */
  file?: File;
}

/** What an added file comes with besides its folder. */
export interface AddOptions {
  /** called once the server confirms the record (not on a refusal or a cancel) */
  onConfirmed?: () => void;
  /** a recording's live-caption sessions (a recorded file has one file only) */
  liveSessionId?: string;
  /** uploaded even when longer than a transcription may be (a recording; a file the user keeps knowingly) */
  keepLong?: boolean;
  /** transcribed as soon as it is uploaded */
  autoTranscribe?: AutoTranscribe;
}

/** The length an item is known to have: the server's once uploaded, else the browser's reading. */
export function knownDuration(item: UploadItem): number | null {
  return item.record?.timeLen ?? item.duration;
}

/**
 * The upload queue of /transaudio, kept outside React: an upload goes on while the user looks at
 * another page of the app, and /transaudio shows it again on return. Only a page unload stops it
 * (the browser asks first while something is being sent).
 */
const itemsStore = createStore<UploadItem[]>([]);
// an upload being sent is not to be covered by a dialog the app opens by itself (lib/busy.ts)
itemsStore.subscribe(() =>
  setBusy(
    "upload",
    itemsStore.get().some((i) => i.status === "uploading"),
  ),
);
const handles = new Map<string, UploadHandle>();
/** what to do once the server confirms an item's record (a recording's local copy goes) */
const confirmed = new Map<string, () => void>();
let onUploaded: ((item: UploadItem) => void) | null = null;
let owner = "";
let readDuration: (file: File) => Promise<number | null> = (file) => readMediaDuration(file);

function patch(id: string, change: Partial<UploadItem>) {
  itemsStore.set((items) =>
    items.some((i) => i.id === id) ? items.map((i) => (i.id === id ? { ...i, ...change } : i)) : items,
  );
}

function send(item: UploadItem) {
  const recordingId = item.recordingId;
  const handle = uploadFile({
    file: item.file,
    fileName: item.file.name,
    uploadId: item.id,
    menuId: item.menuId,
    ...(item.liveSessionId ? { liveSessionId: item.liveSessionId } : {}),
    // while recording, the total is unknown: only the bytes sent move
    onProgress: (loaded, total) => patch(item.id, item.live ? { loaded } : { loaded, total }),
    onResume: (offset, total) => patch(item.id, { resumedAt: Math.floor((offset / total) * 100) }),
    ...(recordingId && item.live ? { growingRecording: recordingId } : {}),
    // a picked file goes on through tus-js-client's own fingerprint store; a recording through its kept URL
    ...(recordingId && item.uploadUrl ? { uploadUrl: item.uploadUrl } : {}),
    ...(recordingId
      ? {
          onUploadUrl: (url: string) => {
            patch(item.id, { uploadUrl: url });
            void setRecordingUploadUrl(recordingId, url).catch(() => {});
          },
        }
      : {}),
  });
  handles.set(item.id, handle);
  handle.promise.then(
    (record) => {
      handles.delete(item.id);
      const size = current(item.id)?.file.size ?? item.file.size;
      patch(item.id, { status: "done", record, loaded: size, total: size, live: false });
      confirmed.get(item.id)?.();
      confirmed.delete(item.id);
      const done = current(item.id);
      if (done) onUploaded?.(done);
    },
    (error: unknown) => {
      handles.delete(item.id);
      if (error instanceof UploadAborted) patch(item.id, { status: "canceled" });
      else patch(item.id, { status: "failed", error: error instanceof ApiError ? error.message : String(error) });
    },
  );
}

const current = (id: string) => itemsStore.get().find((i) => i.id === id);

function beforeUnload(e: BeforeUnloadEvent) {
  if (handles.size > 0) e.preventDefault();
}

export const uploads = {
  /**
   * Adds files; answers the refused ones (spec §5), for which nothing is sent: another type,
   * over 1 GiB, empty, or — when the browser can read the length — over 5 hours, or over the 3 hours
   * a transcription takes (unless `keepLong`).
   */
  async add(files: Iterable<File>, menuId: string | null = null, options: AddOptions = {}): Promise<Refusal[]> {
    const { onConfirmed, liveSessionId, keepLong, autoTranscribe } = options;
    const refused: Refusal[] = [];
    const candidates: File[] = [];
    for (const file of files) {
      const reason = checkUpload(file);
      if (reason) refused.push({ name: file.name, reason });
      else candidates.push(file);
    }
    const durations = await Promise.all(candidates.map((file) => readDuration(file).catch(() => null)));
    const accepted: UploadItem[] = [];
    candidates.forEach((file, i) => {
      const duration = durations[i] ?? null;
      const reason = checkDuration(duration, { keepLong });
      if (reason === "overTranscribeLimit") refused.push({ name: file.name, reason, duration: duration ?? 0, file });
      else if (reason) refused.push({ name: file.name, reason, duration: duration ?? 0 });
      else
        accepted.push({
          id: newUploadId(),
          file,
          menuId,
          status: "uploading",
          loaded: 0,
          total: file.size,
          duration,
          ...(liveSessionId ? { liveSessionId } : {}),
          ...(autoTranscribe ? { autoTranscribe } : {}),
        });
    });
    if (accepted.length === 0) return refused;
    itemsStore.set((items) => [...items, ...accepted]);
    if (onConfirmed) for (const item of accepted) confirmed.set(item.id, onConfirmed);
    window.addEventListener("beforeunload", beforeUnload);
    for (const item of accepted) send(item);
    return refused;
  },
  /**
   * A recording begins: its upload begins with it and follows the recorder (issue 31), so when it stops only
   * the last seconds are left to send.
   */
  addRecording(
    recording: { id: string; fileName: string; mimeType: string },
    menuId: string | null,
    onConfirmed?: () => void,
    /** its live-caption sessions, once the first is known: the upload is created with them */
    liveSessionId?: Promise<string | undefined>,
  ) {
    const item: UploadItem = {
      id: newUploadId(),
      file: new File([], recording.fileName, { type: recording.mimeType }),
      menuId,
      status: "uploading",
      loaded: 0,
      total: 0,
      duration: null,
      recordingId: recording.id,
      live: true,
      ...(liveSessionId ? { liveSessionId } : {}),
    };
    itemsStore.set((items) => [...items, item]);
    if (onConfirmed) confirmed.set(item.id, onConfirmed);
    window.addEventListener("beforeunload", beforeUnload);
    send(item);
  },
  /**
   * A recording left behind by a reload or a crash, offered back and accepted: it goes on from what its upload
   * sent while it was made (the server's offset), or is sent whole when it had none.
   */
  addRecovered(
    file: File,
    recording: { id: string; uploadUrl?: string },
    menuId: string | null,
    onConfirmed?: () => void,
  ) {
    const item: UploadItem = {
      id: newUploadId(),
      file,
      menuId,
      status: "uploading",
      loaded: 0,
      total: file.size,
      duration: null,
      recordingId: recording.id,
      ...(recording.uploadUrl ? { uploadUrl: recording.uploadUrl } : {}),
    };
    itemsStore.set((items) => [...items, item]);
    if (onConfirmed) confirmed.set(item.id, onConfirmed);
    window.addEventListener("beforeunload", beforeUnload);
    send(item);
  },
  /**
   * The recorder stopped and wrote its last chunk (the recording is marked finished on disk): the running
   * upload sends the rest and declares the length by itself; one that failed meanwhile (the network was down
   * longer than its retries) goes on from the server's offset with the whole file. Answers false when the
   * recording had no upload running (then it is added as a file).
   */
  recordingStopped(recordingId: string, file: File, autoTranscribe?: AutoTranscribe): boolean {
    const item = itemsStore.get().find((i) => i.recordingId === recordingId && i.live);
    if (!item) return false;
    const id = item.id;
    patch(id, { file, total: file.size, live: false, ...(autoTranscribe ? { autoTranscribe } : {}) });
    // a canceled one waits for the user's Retry, like any canceled upload
    if (item.status === "failed") {
      patch(id, { status: "uploading", error: undefined });
      send({ ...item, file, total: file.size, live: false, status: "uploading" });
    }
    return true;
  },
  /** The user threw the recording away while it was uploaded: the server forgets the upload too. */
  recordingDiscarded(recordingId: string) {
    const item = itemsStore.get().find((i) => i.recordingId === recordingId);
    if (item) this.remove(item.id);
  },
  cancel(id: string) {
    handles.get(id)?.abort();
  },
  retry(id: string) {
    const item = itemsStore.get().find((i) => i.id === id);
    if (!item || item.status === "uploading" || item.status === "done") return;
    patch(id, { status: "uploading", loaded: 0, error: undefined, resumedAt: undefined });
    send({ ...item, status: "uploading" });
  },
  remove(id: string) {
    // removed for good: the server forgets the unfinished upload too
    handles.get(id)?.abort(true);
    confirmed.delete(id);
    itemsStore.set((items) => items.filter((i) => i.id !== id));
  },
  markSubmitted(fileIds: number[]) {
    itemsStore.set((items) =>
      items.map((i) => (i.record && fileIds.includes(i.record.fileId) ? { ...i, submitted: true } : i)),
    );
  },
  /**
   * The items whose transcription was asked for before their upload ended and is due now (uploaded, not yet
   * asked): marked as asked, so a second look does not ask again.
   */
  takeDueTranscriptions(): UploadItem[] {
    const due = itemsStore
      .get()
      .filter(
        (i) => i.status === "done" && i.record && !i.submitted && i.autoTranscribe && !i.autoTranscribe.requested,
      );
    if (due.length === 0) return [];
    const ids = new Set(due.map((i) => i.id));
    itemsStore.set((items) =>
      items.map((i) =>
        ids.has(i.id) && i.autoTranscribe ? { ...i, autoTranscribe: { ...i.autoTranscribe, requested: true } } : i,
      ),
    );
    return due;
  },
  /** Its transcription was asked for (submitted) or refused: either way it is not waiting any more. */
  transcriptionAnswered(itemIds: string[]) {
    itemsStore.set((items) =>
      items.map((i) => (itemIds.includes(i.id) && i.autoTranscribe ? { ...i, autoTranscribe: undefined } : i)),
    );
  },
  /** Called after each finished upload with its item (the page refreshes the record lists, transcribes what was due). */
  onUploaded(fn: ((item: UploadItem) => void) | null) {
    onUploaded = fn;
  },
  /** The queue belongs to one signed-in user: another user (or none) starts from an empty one. */
  claim(userId: string) {
    if (userId === owner) return;
    owner = userId;
    // Called while rendering /transaudio: swaps the snapshot without notifying (that page reads it next).
    itemsStore.replaceSilently([]);
    for (const h of handles.values()) h.abort();
    handles.clear();
  },
  /** Tests and sign-out: aborts everything and forgets it. */
  reset() {
    for (const h of handles.values()) h.abort();
    handles.clear();
    itemsStore.set([]);
  },
  /** How a file's length is read before its upload; tests hand in their own reader. */
  setDurationReader(reader: (file: File) => Promise<number | null>) {
    readDuration = reader;
  },
  snapshot: itemsStore.get,
  subscribe: itemsStore.subscribe,
};

export function useUploadItems(): UploadItem[] {
  return useStore(itemsStore);
}
