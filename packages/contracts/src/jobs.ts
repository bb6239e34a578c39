import { z } from "zod";

/** BullMQ job payloads (the database row is the truth; a job only carries its id). */
export const ZTranscriptionJob = z.object({ taskId: z.number().int().positive() });
export type TranscriptionJob = z.infer<typeof ZTranscriptionJob>;
export const TRANSCRIBE_JOB = "transcribe";
/** One job per task: adding it again while it is kept is a no-op. */
export const transcriptionJobId = (taskId: number) => `task-${taskId}`;

/** The "tts" queue: job "synthesize" `{taskId}` (a TtsTask), one per task. */
export const ZTtsJob = z.object({ taskId: z.number().int().positive() });
export type TtsJob = z.infer<typeof ZTtsJob>;
export const SYNTHESIZE_JOB = "synthesize";
export const ttsJobId = (taskId: number) => `tts-${taskId}`;

/** The "tts-samples" queue: job "voice-sample" `{promptId}`: a library voice's try_listen sample, once per version. */
export const ZVoiceSampleJob = z.object({ promptId: z.number().int().positive() });
export type VoiceSampleJob = z.infer<typeof ZVoiceSampleJob>;
export const VOICE_SAMPLE_JOB = "voice-sample";
export const voiceSampleJobId = (promptId: number, version: string) => `sample-${promptId}-${version}`;

/**
 * The "voice" queue: job "voice" `{kind, id}` — a trained voice (UserVoice) or a sung/converted song
 * (VoiceWork). A voice trained again is a new job (its id carries the sample it analyses).
 */
export const ZVoiceJob = z.object({ kind: z.enum(["voice", "work"]), id: z.number().int().positive() });
export type VoiceJob = z.infer<typeof ZVoiceJob>;
export const VOICE_JOB = "voice";
export function voiceJobId(kind: "voice" | "work", id: number, sampleKey = ""): string {
  if (kind === "work") return `work-${id}`;
  // the sample's file name (a uuid) tells one training of the voice from the next
  const sample =
    sampleKey
      .split("/")
      .pop()
      ?.replace(/\.[^.]*$/, "") ?? "";
  return `myvoice-${id}-${sample}`;
}

/**
 * The "webhooks" queue: job "deliver-webhook" `{deliveryId, attempt}` — one POST of a WebhookDelivery
 * (the outbox row). One job per attempt: adding it again while it waits is a no-op, and a job whose
 * attempt is no longer the delivery's next one does nothing.
 */
export const ZWebhookJob = z.object({
  deliveryId: z.number().int().positive(),
  attempt: z.number().int().positive(),
});
export type WebhookJob = z.infer<typeof ZWebhookJob>;
export const DELIVER_WEBHOOK_JOB = "deliver-webhook";
export const webhookJobId = (deliveryId: number, attempt: number) => `webhook-${deliveryId}-${attempt}`;
