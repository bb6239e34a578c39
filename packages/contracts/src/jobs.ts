import { z } from "zod";

/** BullMQ job payloads (the database row is the truth; a job only carries its id). */
export const ZTranscriptionJob = z.object({ taskId: z.number().int().positive() });
export type TranscriptionJob = z.infer<typeof ZTranscriptionJob>;
export const TRANSCRIBE_JOB = "transcribe";
/** One job per task: adding it again while it is kept is a no-op. */
export const transcriptionJobId = (taskId: number) => `task-${taskId}`;
