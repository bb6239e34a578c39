import type { WebhookEventType } from "@yuelu/contracts";
import type { DomainEvent } from "@yuelu/runtime";

/**
 * Which domain events integrators hear of, under which public name, with what data
 * (docs/integrators.md "Webhooks"). Built from the event alone — no query — so writing the outbox
 * costs a transaction nothing more than one look at the subscribed endpoints. Links are paths on
 * this server; the sender makes them absolute with PUBLIC_URL.
 */
export interface WebhookEvent {
  type: WebhookEventType;
  /** whose event it is: their endpoints and the operators' receive it */
  userId: number;
  data: Record<string, unknown>;
}

const API = "/voice_yuelu";

export function webhookEventOf(event: DomainEvent): WebhookEvent | undefined {
  switch (event.type) {
    case "transcription.done":
    case "transcription.failed": {
      const failed = event.type === "transcription.failed";
      return {
        type: failed ? "transcription.failed" : "transcription.finished",
        userId: event.userId,
        data: {
          userId: event.userId,
          taskId: event.taskId,
          fileId: event.fileId,
          status: failed ? "failed" : "finished",
          ...(failed ? { errorCode: event.code } : {}),
          links: {
            ...(failed ? {} : { transcript: `${API}/api/v2/audio/text/get_text?fileId=${event.fileId}` }),
            web: `/detail?fileId=${event.fileId}`,
          },
        },
      };
    }
    case "tts.done":
    case "tts.failed": {
      const failed = event.type === "tts.failed";
      return {
        type: failed ? "speech.failed" : "speech.ready",
        userId: event.userId,
        data: {
          userId: event.userId,
          taskId: event.taskId,
          status: failed ? "failed" : "ready",
          ...(failed ? { errorCode: event.code } : {}),
          links: {
            task: `${API}/tts/get_task?taskId=${event.taskId}`,
            ...(failed ? {} : { audio: `${API}/tts/download?taskId=${event.taskId}` }),
          },
        },
      };
    }
    case "voice.done":
    case "voice.failed": {
      const failed = event.type === "voice.failed";
      return {
        type: failed ? "voice.failed" : "voice.ready",
        userId: event.userId,
        data: {
          userId: event.userId,
          kind: event.kind,
          id: event.id,
          status: failed ? "failed" : "ready",
          ...(failed ? { errorCode: event.code } : {}),
          links:
            event.kind === "voice"
              ? { voice: `${API}/voice/my_voice/get?voiceId=${event.id}` }
              : failed
                ? {}
                : { file: `${API}/voice/works/file?workId=${event.id}` },
        },
      };
    }
    case "transcript.changed":
      // once per committed change (a batch rename is one), with the version an integrator can compare
      return {
        type: "transcript.updated",
        userId: event.userId,
        data: {
          userId: event.userId,
          fileId: event.fileId,
          change: event.change,
          version: event.version,
          links: {
            transcript: `${API}/api/v2/audio/text/get_text?fileId=${event.fileId}`,
            web: `/detail?fileId=${event.fileId}`,
          },
        },
      };
    case "order.paid":
      return {
        type: "order.paid",
        userId: event.userId,
        data: {
          userId: event.userId,
          orderNumber: event.orderNumber,
          goodsId: event.goodsId,
          status: "paid",
          links: { web: "/order" },
        },
      };
    default:
      return undefined;
  }
}
