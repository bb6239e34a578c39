import {
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_IMAGE_BYTES,
  FEEDBACK_IMAGES_MAX,
  FEEDBACK_TEXT_MAX,
} from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { ErrorState, Spinner, StateIcon } from "@/components/ui/states.tsx";
import { formatSize } from "@/lib/format.ts";
import { useAddFeedback } from "../api/add-feedback.ts";
import { useFeedbackCategories } from "../api/get-feedback-categories.ts";
import { categoryTree, checkFeedback, type FeedbackProblem, IMAGE_TYPES, imageProblem } from "../lib/feedback-rules.ts";
import "./feedback-dialog.css";

const PROBLEM_TEXT: Record<FeedbackProblem, string> = {
  category: "feedback.pickCategory",
  subCategory: "feedback.pickSubCategory",
  content: "feedback.contentRequired",
  contentTooLong: "feedback.contentTooLong",
  contactTooLong: "feedback.contactTooLong",
};

/**
 * Spec §7 feedback: a category (level-0 parent, then one of its children when it has any), the
 * description, a contact, up to 3 screenshots (images only, 5 MB each, checked here and again by
 * the server). A failed load of the categories shows an alert (spec §8).
 */
export function FeedbackDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const categories = useFeedbackCategories();
  const tree = useMemo(() => categoryTree(categories.data ?? []), [categories.data]);
  const add = useAddFeedback();
  const [parentId, setParentId] = useState<number | null>(null);
  const [childId, setChildId] = useState<number | null>(null);
  const [content, setContent] = useState("");
  const [contact, setContact] = useState("");
  const [images, setImages] = useState<File[]>([]);
  const [imageError, setImageError] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [sent, setSent] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const check = checkFeedback({ parentId, childId, content, contact }, tree);
  const problem = (field: "category" | "content" | "contact") => {
    const p = shown ? check.problems[field] : undefined;
    return p ? t(PROBLEM_TEXT[p], { max: field === "contact" ? FEEDBACK_CONTACT_MAX : FEEDBACK_TEXT_MAX }) : null;
  };
  const children = tree.find((n) => n.category.id === parentId)?.children ?? [];

  const onPickImages = (files: FileList | null) => {
    setImageError(null);
    const next = [...images];
    for (const file of Array.from(files ?? [])) {
      const why = imageProblem(file, next.length);
      if (why) {
        setImageError(
          t(`feedback.${why}`, { name: file.name, max: FEEDBACK_IMAGES_MAX, size: formatSize(FEEDBACK_IMAGE_BYTES) }),
        );
        if (why === "tooMany") break;
        continue;
      }
      next.push(file);
    }
    setImages(next);
    if (fileInput.current) fileInput.current.value = "";
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (add.isPending || check.categoryId === null || Object.keys(check.problems).length > 0) return;
    add.mutate({ categoryId: check.categoryId, content, contact, images }, { onSuccess: () => setSent(true) });
  };

  const reset = () => {
    setParentId(null);
    setChildId(null);
    setContent("");
    setContact("");
    setImages([]);
    setShown(false);
    setSent(false);
  };

  let body: ReactNode;
  if (sent) {
    body = (
      <div className="empty" data-testid="feedback-sent">
        <StateIcon>✓</StateIcon>
        <p>{t("feedback.thanks")}</p>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={reset}>
            {t("feedback.again")}
          </Button>
          <Button onClick={onClose}>{t("common.close")}</Button>
        </div>
      </div>
    );
  } else if (categories.isPending) {
    body = <Spinner />;
  } else if (categories.isError) {
    body = <ErrorState message={t("feedback.categoriesFailed")} onRetry={() => void categories.refetch()} />;
  } else {
    body = (
      <form className="form feedback-form" onSubmit={onSubmit} noValidate data-testid="feedback-form">
        <p className="muted feedback-intro">{t("feedback.intro")}</p>
        <fieldset className="field feedback-fieldset">
          <legend className="field-label">{t("feedback.category")}</legend>
          <div className="feedback-options" data-testid="feedback-categories">
            {tree.map((node) => (
              <button
                key={node.category.id}
                type="button"
                className={clsx("feedback-option", parentId === node.category.id && "active")}
                aria-pressed={parentId === node.category.id}
                onClick={() => {
                  setParentId(node.category.id);
                  setChildId(null);
                }}
              >
                {node.category.name}
              </button>
            ))}
          </div>
        </fieldset>
        {children.length > 0 && (
          <fieldset className="field feedback-fieldset">
            <legend className="field-label">{t("feedback.subCategory")}</legend>
            <div className="feedback-options" data-testid="feedback-subcategories">
              {children.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  className={clsx("feedback-option small", childId === c.id && "active")}
                  aria-pressed={childId === c.id}
                  onClick={() => setChildId(c.id)}
                >
                  {c.name}
                </button>
              ))}
            </div>
          </fieldset>
        )}
        {problem("category") && (
          <p className="error-text" role="alert">
            {problem("category")}
          </p>
        )}
        <label className="field">
          <span className="field-label">{t("feedback.content")}</span>
          <textarea
            className="input"
            rows={5}
            value={content}
            maxLength={FEEDBACK_TEXT_MAX}
            placeholder={t("feedback.contentPlaceholder")}
            aria-invalid={problem("content") ? true : undefined}
            onChange={(e) => setContent(e.target.value)}
            data-testid="feedback-content"
          />
          <span className="feedback-counter muted">
            {content.trim().length}/{FEEDBACK_TEXT_MAX}
          </span>
        </label>
        {problem("content") && (
          <p className="error-text" role="alert">
            {problem("content")}
          </p>
        )}
        <label className="field">
          <span className="field-label">{t("feedback.contact")}</span>
          <input
            className="input"
            value={contact}
            maxLength={FEEDBACK_CONTACT_MAX}
            placeholder={t("feedback.contactPlaceholder")}
            aria-invalid={problem("contact") ? true : undefined}
            onChange={(e) => setContact(e.target.value)}
            data-testid="feedback-contact"
          />
        </label>
        {problem("contact") && (
          <p className="error-text" role="alert">
            {problem("contact")}
          </p>
        )}
        <div className="field">
          <span className="field-label">{t("feedback.screenshots", { max: FEEDBACK_IMAGES_MAX })}</span>
          <div className="feedback-shots">
            {images.map((file, i) => (
              <Thumbnail
                key={`${file.name}-${file.size}-${file.lastModified}`}
                file={file}
                onRemove={() => setImages(images.filter((_, j) => j !== i))}
              />
            ))}
            {images.length < FEEDBACK_IMAGES_MAX && (
              <label className="feedback-add" title={t("feedback.addScreenshot")}>
                <input
                  ref={fileInput}
                  type="file"
                  accept={IMAGE_TYPES.join(",")}
                  multiple
                  className="sr-only"
                  onChange={(e) => onPickImages(e.target.files)}
                  data-testid="feedback-images"
                />
                <span aria-hidden>+</span>
                <span className="sr-only">{t("feedback.addScreenshot")}</span>
              </label>
            )}
          </div>
          {imageError && (
            <p className="error-text" role="alert" data-testid="feedback-image-error">
              {imageError}
            </p>
          )}
        </div>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={add.isPending} data-testid="feedback-submit">
            {add.isPending ? t("feedback.submitting") : t("feedback.submit")}
          </Button>
        </div>
      </form>
    );
  }

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t("feedback.title")} description={t("feedback.intro")}>
      {body}
    </Dialog>
  );
}

/** A chosen screenshot, shown from a local object URL, with its remove button. */
function Thumbnail({ file, onRemove }: { file: File; onRemove: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return (
    <div className="feedback-shot" data-testid="feedback-shot">
      {url && <img src={url} alt={file.name} />}
      <button
        type="button"
        className="feedback-shot-remove"
        onClick={onRemove}
        aria-label={t("feedback.removeScreenshot", { name: file.name })}
      >
        ×
      </button>
    </div>
  );
}
