import { useSyncExternalStore } from "react";
import { ApiError } from "../../../lib/api-client.ts";
import type { UploadedRecord } from "../api/types.ts";
import { UploadAborted, type UploadHandle, uploadFile } from "../api/upload-file.ts";
import { checkUpload, newUploadId, type UploadRefusal } from "../lib/upload-rules.ts";

export type UploadStatus = "uploading" | "done" | "failed" | "canceled";

export interface UploadItem {
  /** the client uploadId: the same on every retry, so a retry after a lost answer is safe */
  id: string;
  file: File;
  menuId: string | null;
  status: UploadStatus;
  loaded: number;
  total: number;
  error?: string;
  record?: UploadedRecord;
  /** sent for transcription from /transaudio */
  submitted?: boolean;
}

export interface Refusal {
  name: string;
  reason: UploadRefusal;
}

/**
 * The upload queue of /transaudio, kept outside React: an upload goes on while the user looks at
 * another page of the app, and /transaudio shows it again on return. Only a page unload stops it
 * (the browser asks first while something is being sent).
 */
let items: UploadItem[] = [];
const handles = new Map<string, UploadHandle>();
const listeners = new Set<() => void>();
let onUploaded: (() => void) | null = null;
let owner = "";

function emit() {
  for (const l of listeners) l();
}

function patch(id: string, change: Partial<UploadItem>) {
  if (!items.some((i) => i.id === id)) return;
  items = items.map((i) => (i.id === id ? { ...i, ...change } : i));
  emit();
}

function send(item: UploadItem) {
  const handle = uploadFile({
    file: item.file,
    fileName: item.file.name,
    uploadId: item.id,
    menuId: item.menuId,
    onProgress: (loaded, total) => patch(item.id, { loaded, total }),
  });
  handles.set(item.id, handle);
  handle.promise.then(
    (record) => {
      handles.delete(item.id);
      patch(item.id, { status: "done", record, loaded: item.file.size, total: item.file.size });
      onUploaded?.();
    },
    (error: unknown) => {
      handles.delete(item.id);
      if (error instanceof UploadAborted) patch(item.id, { status: "canceled" });
      else patch(item.id, { status: "failed", error: error instanceof ApiError ? error.message : String(error) });
    },
  );
}

function beforeUnload(e: BeforeUnloadEvent) {
  if (handles.size > 0) e.preventDefault();
}

export const uploads = {
  /** Adds files; answers the refused ones (spec §5; nothing is sent for those). */
  add(files: Iterable<File>, menuId: string | null = null): Refusal[] {
    const refused: Refusal[] = [];
    const accepted: UploadItem[] = [];
    for (const file of files) {
      const reason = checkUpload(file);
      if (reason) refused.push({ name: file.name, reason });
      else accepted.push({ id: newUploadId(), file, menuId, status: "uploading", loaded: 0, total: file.size });
    }
    if (accepted.length === 0) return refused;
    items = [...items, ...accepted];
    emit();
    window.addEventListener("beforeunload", beforeUnload);
    for (const item of accepted) send(item);
    return refused;
  },
  cancel(id: string) {
    handles.get(id)?.abort();
  },
  retry(id: string) {
    const item = items.find((i) => i.id === id);
    if (!item || item.status === "uploading" || item.status === "done") return;
    patch(id, { status: "uploading", loaded: 0, error: undefined });
    send({ ...item, status: "uploading" });
  },
  remove(id: string) {
    handles.get(id)?.abort();
    items = items.filter((i) => i.id !== id);
    emit();
  },
  markSubmitted(fileIds: number[]) {
    items = items.map((i) => (i.record && fileIds.includes(i.record.fileId) ? { ...i, submitted: true } : i));
    emit();
  },
  /** Called after each finished upload (the page refreshes the record lists). */
  onUploaded(fn: (() => void) | null) {
    onUploaded = fn;
  },
  /** The queue belongs to one signed-in user: another user (or none) starts from an empty one. */
  claim(userId: string) {
    if (userId === owner) return;
    owner = userId;
    // Called while rendering /transaudio: swaps the snapshot without notifying (that page reads it next).
    items = [];
    for (const h of handles.values()) h.abort();
    handles.clear();
  },
  /** Tests and sign-out: aborts everything and forgets it. */
  reset() {
    for (const h of handles.values()) h.abort();
    handles.clear();
    items = [];
    emit();
  },
  snapshot: () => items,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useUploadItems(): UploadItem[] {
  return useSyncExternalStore(uploads.subscribe, uploads.snapshot);
}
