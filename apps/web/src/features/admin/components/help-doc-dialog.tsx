import type { AdminHelpDoc, AdminHelpEdit } from "@yuelu/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useSaveHelpDoc } from "../api/content.ts";
import { changedOnly } from "../lib/changes.ts";
import { intIn } from "../lib/numbers.ts";
import { DocPreview } from "./doc-preview.tsx";
import { NumberField, TextField } from "./form-fields.tsx";

const SLUG = /^[a-z0-9-]{1,64}$/;

/**
 * Creates or edits a help document: its slug, titles, and text in Chinese and English, each
 * written beside a preview of what the help centre will show.
 */
export function HelpDocDialog({
  doc,
  open,
  onClose,
}: {
  doc: AdminHelpDoc | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={doc ? t("admin.content.editDoc", { title: doc.title }) : t("admin.content.newDoc")}
      wide
      className="admin-dialog-xl"
    >
      {open && <HelpDocForm doc={doc} onDone={onClose} />}
    </Dialog>
  );
}

function HelpDocForm({ doc, onDone }: { doc: AdminHelpDoc | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveHelpDoc();
  const [slug, setSlug] = useState(doc?.slug ?? "");
  const [title, setTitle] = useState(doc?.title ?? "");
  const [titleEn, setTitleEn] = useState(doc?.titleEn ?? "");
  const [content, setContent] = useState(doc?.content ?? "");
  const [contentEn, setContentEn] = useState(doc?.contentEn ?? "");
  const [sort, setSort] = useState(String(doc?.sort ?? 0));
  const [lang, setLang] = useState<"zh" | "en">("zh");
  const [tried, setTried] = useState(false);

  const sortValue = intIn(sort, -100_000, 100_000);
  const slugOk = SLUG.test(slug.trim());
  const valid = slugOk && title.trim() && titleEn.trim() && content.trim() && contentEn.trim() && sortValue !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!valid || sortValue === null) return;
    const fields = {
      slug: slug.trim(),
      title: title.trim(),
      titleEn: titleEn.trim(),
      content,
      contentEn,
      sort: sortValue,
    };
    const done = {
      onSuccess: () => {
        toast.success(t("admin.act.saved"));
        onDone();
      },
    };
    if (doc) {
      const edit: AdminHelpEdit = changedOnly(doc, fields);
      if (Object.keys(edit).length === 0) {
        onDone();
        return;
      }
      save.mutate({ id: doc.id, edit }, done);
    } else {
      save.mutate({ create: fields }, done);
    }
  };

  const text = lang === "zh" ? content : contentEn;
  return (
    <form className="admin-form" onSubmit={submit} noValidate data-testid="help-doc-form">
      <div className="admin-form-row">
        <TextField
          label={t("admin.content.slug")}
          value={slug}
          onChange={(v) => setSlug(v.toLowerCase())}
          maxLength={64}
          invalid={tried && !slugOk}
          hint={t("admin.content.slugHint")}
        />
        <NumberField
          label={t("admin.field.sort")}
          value={sort}
          onChange={setSort}
          invalid={tried && sortValue === null}
          allowNegative
        />
      </div>
      <div className="admin-form-row">
        <TextField
          label={t("admin.content.docTitleZh")}
          value={title}
          onChange={setTitle}
          maxLength={100}
          invalid={tried && !title.trim()}
        />
        <TextField
          label={t("admin.content.docTitleEn")}
          value={titleEn}
          onChange={setTitleEn}
          maxLength={100}
          invalid={tried && !titleEn.trim()}
        />
      </div>
      <div className="tabs-list" role="tablist">
        {(["zh", "en"] as const).map((l) => (
          <button
            key={l}
            type="button"
            role="tab"
            className="tabs-trigger"
            aria-selected={lang === l}
            data-state={lang === l ? "active" : "inactive"}
            onClick={() => setLang(l)}
          >
            {t(l === "zh" ? "admin.content.contentZh" : "admin.content.contentEn")}
          </button>
        ))}
      </div>
      <div className="admin-editor">
        <TextField
          label={t(lang === "zh" ? "admin.content.contentZh" : "admin.content.contentEn")}
          value={text}
          onChange={lang === "zh" ? setContent : setContentEn}
          maxLength={20_000}
          multiline
          rows={12}
          invalid={tried && !text.trim()}
          hint={t("admin.content.formatHint")}
          testId="help-content"
        />
        <div className="field">
          <span className="field-label">{t("admin.content.preview")}</span>
          <DocPreview content={text} testId="help-preview" />
        </div>
      </div>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onDone}>
          {t("admin.act.cancel")}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t("admin.act.saving") : t("admin.act.save")}
        </Button>
      </div>
    </form>
  );
}
