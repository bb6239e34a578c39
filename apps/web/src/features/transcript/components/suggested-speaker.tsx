import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { queryKeys } from "@/lib/query-keys.ts";
import { confirmSpeaker } from "../api/confirm-speaker.ts";
import "./suggested-speaker.css";

/**
 * Beside a speaker whose name was suggested by their voice (docs/people.md): "suggested", and one click to
 * confirm it or undo it. The record is the page's (`?fileId=`); the transcript is read again after either.
 */
export function SuggestedSpeaker({ speaker }: { speaker: number }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const fileId = Number(params.get("fileId"));
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const answer = async (accept: boolean) => {
    if (busy || !fileId) return;
    setBusy(true);
    try {
      const done = await confirmSpeaker(fileId, speaker, accept);
      toast.success(accept ? t("people.confirmed", { name: done.spkName }) : t("people.undone"));
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.transcript.text(fileId) }),
        client.invalidateQueries({ queryKey: queryKeys.people }),
      ]);
    } catch {
      // the API client has told the user
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="suggested-speaker" data-testid="suggested-speaker">
      <span className="suggested-tag" title={t("people.suggestedHint")}>
        {t("people.suggested")}
      </span>
      <button type="button" disabled={busy} onClick={() => void answer(true)} data-testid="suggested-confirm">
        {t("people.confirm")}
      </button>
      <button type="button" disabled={busy} onClick={() => void answer(false)} data-testid="suggested-undo">
        {t("people.undo")}
      </button>
    </span>
  );
}
