import { SATISFACTION_COMMENT_MAX, SATISFACTION_MAX, SATISFACTION_MIN } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { StandaloneMark } from "@/components/standalone-page.tsx";
import { Button } from "@/components/ui/button.tsx";
import { paths } from "@/config/paths.ts";
import { ApiError } from "@/lib/api-client.ts";
import { useAddSatisfaction } from "../api/add-satisfaction.ts";
import "./satisfaction-form.css";

const FACES = ["😣", "🙁", "😐", "🙂", "😄"];
const RATINGS = Array.from({ length: SATISFACTION_MAX - SATISFACTION_MIN + 1 }, (_, i) => SATISFACTION_MIN + i);

/**
 * /tranSatis: rate a transcription from 1 (very unsatisfied) to 5, with an optional comment, and
 * send it to the server (the record's `fileId` goes along when the page was opened for one). The
 * thanks show only once the rating is stored; a failure says so and keeps what was entered.
 */
export function SatisfactionForm({ fileId }: { fileId?: number }) {
  const { t } = useTranslation();
  const add = useAddSatisfaction();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState("");

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (rating === null || add.isPending) return;
    const trimmed = comment.trim();
    add.mutate({ rating, ...(trimmed ? { comment: trimmed } : {}), ...(fileId ? { fileId } : {}) });
  };

  if (add.isSuccess) {
    return (
      <>
        <StandaloneMark>✓</StandaloneMark>
        <h1 role="status">{t("satisfaction.thanks")}</h1>
        <Link className="btn btn-primary" to={paths.audioList}>
          {t("titles.audioList")}
        </Link>
      </>
    );
  }

  return (
    <form className="satis-form" onSubmit={submit} aria-busy={add.isPending}>
      <h1>{t("satisfaction.title")}</h1>
      <p className="muted">{t("satisfaction.subtitle")}</p>
      <fieldset className="satis-choices">
        <legend className="sr-only">{t("satisfaction.title")}</legend>
        {RATINGS.map((value, i) => (
          <label key={value} className={clsx("satis-choice", rating === value && "selected")}>
            <input
              type="radio"
              className="sr-only"
              name="rating"
              value={value}
              checked={rating === value}
              onChange={() => setRating(value)}
            />
            <span className="satis-face" aria-hidden>
              {FACES[i]}
            </span>
            <span className="satis-label">{t(`satisfaction.rating${value}`)}</span>
          </label>
        ))}
      </fieldset>
      <label className="field satis-comment">
        <span className="field-label">{t("satisfaction.commentLabel")}</span>
        <textarea
          className="input"
          rows={3}
          value={comment}
          maxLength={SATISFACTION_COMMENT_MAX}
          placeholder={t("satisfaction.commentPlaceholder")}
          onChange={(e) => setComment(e.target.value)}
        />
      </label>
      {add.isError && (
        <p className="error-text" role="alert" data-testid="satisfaction-error">
          {t("satisfaction.failed", {
            reason: add.error instanceof ApiError ? add.error.message : t("errors.generic"),
          })}
        </p>
      )}
      <Button type="submit" size="lg" disabled={rating === null || add.isPending} data-testid="satisfaction-submit">
        {add.isPending ? t("satisfaction.sending") : t("satisfaction.submit")}
      </Button>
    </form>
  );
}
