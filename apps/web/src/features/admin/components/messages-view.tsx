import type { AdminMessageSend, AdminSentMessage } from "@yuelu/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { type SentMessageFilter, useSendMessage, useSentMessages } from "../api/messages.ts";
import { adminPath } from "../lib/areas.ts";
import { formatInstant } from "../lib/format.ts";
import { newRequestId } from "../lib/request-id.ts";
import { parseUserKey } from "../lib/user-key.ts";
import { AdminSection } from "./admin-layout.tsx";
import { TextField } from "./form-fields.tsx";

/** Messages: send one to everyone or to one user (Chinese, English optional), and what was sent. */
export function MessagesView() {
  return (
    <>
      <ComposeSection />
      <SentSection />
    </>
  );
}

function ComposeSection() {
  const { t } = useTranslation();
  const id = useId();
  const send = useSendMessage();
  // one key per message: kept while it is retried, renewed once it is sent
  const [requestId, setRequestId] = useState(newRequestId);
  const [audience, setAudience] = useState<"all" | "user">("user");
  const [userKey, setUserKey] = useState("");
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [titleEn, setTitleEn] = useState("");
  const [textEn, setTextEn] = useState("");
  const [sender, setSender] = useState("");
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const target = audience === "user" ? parseUserKey(userKey) : null;
  const valid = title.trim() !== "" && text.trim() !== "" && (audience === "all" || target !== null);

  const body = (): AdminMessageSend => ({
    requestId,
    audience,
    ...(audience === "user" && target ? target : {}),
    title: title.trim(),
    text: text.trim(),
    titleEn: titleEn.trim(),
    textEn: textEn.trim(),
    ...(sender.trim() ? { sender: sender.trim() } : {}),
  });
  const doSend = () =>
    send.mutate(body(), {
      onSuccess: (r) => {
        toast.success(r.created ? t("admin.messages.sent") : t("admin.messages.sentAgain"));
        setConfirming(false);
        setRequestId(newRequestId());
        setTitle("");
        setText("");
        setTitleEn("");
        setTextEn("");
        setTried(false);
      },
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!valid) return;
    if (audience === "all") setConfirming(true);
    else doSend();
  };

  return (
    <AdminSection title={t("admin.messages.compose")} testId="message-compose">
      <form className="admin-form" onSubmit={submit} noValidate data-testid="message-form">
        <fieldset className="admin-radios">
          <legend className="field-label">{t("admin.messages.audience")}</legend>
          {(["user", "all"] as const).map((a) => (
            <label key={a} className="check-label">
              <input
                type="radio"
                className="check"
                name={`${id}-audience`}
                value={a}
                checked={audience === a}
                onChange={() => setAudience(a)}
              />
              {a === "all" ? t("admin.messages.toAll") : t("admin.messages.toUser")}
            </label>
          ))}
        </fieldset>
        {audience === "user" && (
          <TextField
            label={t("admin.messages.userKey")}
            value={userKey}
            onChange={(v) => setUserKey(v.replace(/\D/g, "").slice(0, 11))}
            invalid={tried && target === null}
            hint={tried && target === null ? t("admin.messages.userKeyInvalid") : undefined}
            testId="message-user"
          />
        )}
        <div className="admin-form-row admin-form-2">
          <div className="admin-form">
            <TextField
              label={t("admin.messages.titleZh")}
              value={title}
              onChange={setTitle}
              maxLength={60}
              invalid={tried && !title.trim()}
              testId="message-title"
            />
            <TextField
              label={t("admin.messages.textZh")}
              value={text}
              onChange={setText}
              maxLength={2000}
              multiline
              invalid={tried && !text.trim()}
              hint={tried && (!title.trim() || !text.trim()) ? t("admin.messages.textRequired") : undefined}
              testId="message-text"
            />
          </div>
          <div className="admin-form">
            <TextField label={t("admin.messages.titleEn")} value={titleEn} onChange={setTitleEn} maxLength={60} />
            <TextField
              label={t("admin.messages.textEn")}
              value={textEn}
              onChange={setTextEn}
              maxLength={2000}
              multiline
              hint={t("admin.messages.enHint")}
            />
          </div>
        </div>
        <TextField label={t("admin.messages.sender")} value={sender} onChange={setSender} maxLength={30} />
        <div>
          <Button type="submit" disabled={send.isPending} data-testid="message-send">
            {send.isPending ? t("admin.messages.sending") : t("admin.messages.send")}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t("admin.messages.confirmAllTitle")}
        text={t("admin.messages.confirmAllText", { title: title.trim() })}
        confirmLabel={t("admin.messages.send")}
        danger
        pending={send.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={doSend}
      />
    </AdminSection>
  );
}

function SentSection() {
  const { t } = useTranslation();
  const table = useTableState<SentMessageFilter>({ sort: "sentAt", filters: ["audience", "userId"] });
  const sent = useSentMessages(table.query);
  const columns: PagedColumn<AdminSentMessage>[] = [
    {
      id: "sentAt",
      header: t("admin.messages.sentAt"),
      sort: "sentAt",
      cell: (m) => <span className="admin-nowrap">{formatInstant(m.sentAt)}</span>,
    },
    {
      id: "to",
      header: t("admin.messages.to"),
      cell: (m) =>
        m.audience === "all" || m.userId === null ? (
          <Tag tone="brand">{t("admin.messages.everyone")}</Tag>
        ) : (
          <Link to={adminPath("users", m.userId)}>{m.phone || `#${m.userId}`}</Link>
        ),
    },
    {
      id: "title",
      header: t("admin.messages.titleZh"),
      cell: (m) => (
        <details className="admin-message">
          <summary>
            {m.title}
            {m.titleEn && <span className="muted"> · {m.titleEn}</span>}
          </summary>
          <p className="admin-pre">{m.text}</p>
          {m.textEn && <p className="admin-pre muted">{m.textEn}</p>}
        </details>
      ),
    },
    { id: "sender", header: t("admin.audit.from"), cell: (m) => m.sender },
    {
      id: "reads",
      header: t("admin.messages.reads"),
      numeric: true,
      cell: (m) => t("admin.messages.readsOf", { reads: m.reads, recipients: m.recipients }),
    },
  ];
  return (
    <AdminSection title={t("admin.messages.list")} testId="message-sent">
      <FilterBar
        values={table.filters}
        onApply={table.setFilters}
        fields={[
          {
            name: "audience",
            label: t("admin.messages.audience"),
            type: "select",
            options: [
              { value: "all", label: t("admin.messages.toAll") },
              { value: "user", label: t("admin.messages.toUser") },
            ],
          },
          { name: "userId", label: t("admin.field.id"), inputMode: "numeric" },
        ]}
      />
      <PagedTable
        caption={t("admin.messages.list")}
        testId="sent-table"
        columns={columns}
        rowKey={(m) => m.notifyId}
        result={sent}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
    </AdminSection>
  );
}
