import {
  type DictationParam,
  FileStatus,
  JOBS,
  type Lang,
  StatusCode,
  transcriptionFailureMessage,
  ZDictationParamInput,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";

import { AppError, visibleTo } from "@yuelu/domain";
import { enqueue, type QueueBackend } from "@yuelu/runtime";

/** Transcription requests (docs/records-api.md "Transcription"): the parts that are HTTP's or the queue's. */

/**
 * dictationParam: a JSON string or an object (validated with ZDictationParamInput); absent → defaults.
 * Malformed JSON or bad fields → 10002 naming dictationParam(.field).
 */
export function parseDictationParam(raw: unknown): DictationParam {
  let value: unknown = raw ?? {};
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") {
      value = {};
    } else {
      try {
        value = JSON.parse(text);
      } catch {
        throw AppError.invalid("dictationParam", "invalid JSON");
      }
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw AppError.invalid("dictationParam", "must be a JSON object");
  }
  const parsed = ZDictationParamInput.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ["dictationParam", ...(issue?.path ?? []).map(String)].join(".");
    throw AppError.invalid(field, issue?.message);
  }
  return parsed.data;
}

/** The queue producer: adds the task's job (the job table's `transcription` row). */
export function transcriptionQueue(queues: QueueBackend) {
  return async (taskId: number): Promise<void> => {
    await enqueue(queues, JOBS.transcription, { taskId });
  };
}

export interface ProgressRow {
  fileId: number;
  fileStatus: number;
  progress: number;
  taskId: number | null;
  errorCode?: number;
  errorMsg?: string;
}

/** Status and progress of each file, in the order asked; unknown or foreign files answer -10. A failure says why, in `lang`. */
export async function progressOf(db: Db, userId: number, fileIds: number[], lang: Lang): Promise<ProgressRow[]> {
  const [records, tasks] = await Promise.all([
    db.audioRecord.findMany({
      where: { fileId: { in: fileIds }, ...visibleTo(userId) },
      select: { fileId: true, fileStatus: true, progress: true },
    }),
    db.transcriptionTask.findMany({
      where: { fileId: { in: fileIds }, userId },
      orderBy: { id: "desc" },
      distinct: ["fileId"],
      select: { id: true, fileId: true, status: true, errorCode: true, errorReason: true },
    }),
  ]);
  return fileIds.map((fileId): ProgressRow => {
    const record = records.find((r) => r.fileId === fileId);
    if (!record) return { fileId, fileStatus: FileStatus.NotFound, progress: 0, taskId: null };
    const task = tasks.find((t) => t.fileId === fileId);
    const row: ProgressRow = {
      fileId,
      fileStatus: record.fileStatus,
      progress: record.fileStatus === FileStatus.Complete ? 100 : Math.max(0, Math.min(100, record.progress)),
      taskId: task?.id ?? null,
    };
    if (record.fileStatus === FileStatus.Failed && task?.errorCode) {
      row.errorCode = task.errorCode;
      // Tasks failed before reasons were stored: a 70001 still says the engine was missing.
      const reason =
        task.errorReason ?? (task.errorCode === StatusCode.EngineUnavailable ? "engine-unavailable" : null);
      row.errorMsg = transcriptionFailureMessage(reason, lang);
    }
    return row;
  });
}
