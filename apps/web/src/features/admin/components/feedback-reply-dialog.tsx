import type { AdminFeedback } from "@yuelu/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useMarkHandled, useReplyFeedback } from "../api/content.ts";
import { TextField } from "./form-fields.tsx";

/**
 * Replies to a feedback (to the user's message centre, once) and marks it handled; a visitor's
 * feedback, with no one to reply to, can only be marked handled.
 */
export function FeedbackReplyDialog({ feedback, onClose }: { feedback: AdminFeedback | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={feedback !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("admin.content.replyTitle", { id: feedback?.id ?? "" })}
      wide
    >
      {feedback && <ReplyForm feedback={feedback} onDone={onClose} />}
    </Dialog>
  );
}

function ReplyForm({ feedback, onDone }: { feedback: AdminFeedback; onDone: () => void }) {
  const { t } = useTranslation();
  const reply = useReplyFeedback();
  const mark = useMarkHandled();
  const [text, setText] = useState(feedback.reply);
  const [textEn, setTextEn] = useState("");
  const [tried, setTried] = useState(false);
  const canReply = feedback.userId !== null && !feedback.reply;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!text.trim()) return;
    reply.mutate(
      { id: feedback.id, text: text.trim(), textEn: textEn.trim() },
      {
        onSuccess: () => {
          toast.success(t("admin.content.replySentToast"));
          onDone();
        },
      },
    );
  };

  return (
    <form className="admin-form" onSubmit={submit} noValidate data-testid="feedback-reply-form">
      <blockquote className="admin-quote">
        <p className="muted">
          {feedback.category} · {feedback.phone || t("admin.content.anonymous")}
        </p>
        <p className="admin-pre">{feedback.content}</p>
      </blockquote>
      {canReply ? (
        <>
          <p className="field-hint">{t("admin.content.replyHint")}</p>
          <TextField
            label={t("admin.content.replyZh")}
            value={text}
            onChange={setText}
            maxLength={500}
            multiline
            invalid={tried && !text.trim()}
          />
          <TextField label={t("admin.content.replyEn")} value={textEn} onChange={setTextEn} maxLength={500} multiline />
        </>
      ) : feedback.reply ? (
        <p>{t("admin.content.yourReply", { text: feedback.reply })}</p>
      ) : (
        <p className="muted">{t("admin.content.replyNoUser")}</p>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onDone}>
          {t("admin.act.cancel")}
        </Button>
        {!feedback.handledAt && (
          <Button
            variant={canReply ? "ghost" : "primary"}
            disabled={mark.isPending}
            onClick={() => mark.mutate({ id: feedback.id, handled: true }, { onSuccess: onDone })}
          >
            {t("admin.content.markHandled")}
          </Button>
        )}
        {canReply && (
          <Button type="submit" disabled={reply.isPending}>
            {t("admin.content.sendReply")}
          </Button>
        )}
      </div>
    </form>
  );
}
