import type { Message } from "@yuelu/contracts";
import { clsx } from "clsx";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useUnreadSize } from "@/lib/account.ts";
import { messageDialog } from "@/lib/app-dialogs.ts";
import { formatDateTime } from "@/lib/format.ts";
import { type ReadSign, useMessages } from "../api/get-messages.ts";
import { useReadAllMessages, useReadMessage } from "../api/read-messages.ts";
import { formatMessageDate } from "../lib/message-date.ts";
import "./message-dialog.css";

/**
 * Spec §2/§4 message centre: the list on the left (stacked above the detail on phones), the
 * selected message on the right; the first one is selected when the list loads; showing an unread
 * one (selected on load or clicked) marks it read, here at once and on the server; 'only unread' (readSign 0) and 'mark all
 * read'. Mounted while open (app/engagement-dialogs.tsx).
 */
/**
 * A message's text. A grouped notice of several events (docs/engagement.md "Messages": notifyText is
 * its summary line, then a line per item) shows the summary and the events as a list, each at its
 * time on the reader's clock.
 */
function MessageText({ message }: { message: Message }) {
  const items = message.items ?? [];
  // plain text: React escapes it; line breaks are kept by the stylesheet
  if (items.length < 2) return <div className="msg-detail-text">{message.notifyText}</div>;
  const [summary] = message.notifyText.split("\n");
  return (
    <>
      <div className="msg-detail-text">{summary}</div>
      <ul className="msg-items" data-testid="message-items">
        {items.map((item) => (
          <li key={`${item.sendTime}-${item.text}`}>
            <time className="msg-item-date" dateTime={new Date(item.sendTime * 1000).toISOString()}>
              {formatDateTime(item.sendTime)}
            </time>
            <span className="msg-items-text">{item.text}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export default function MessageDialog() {
  const { t } = useTranslation();
  const [onlyUnread, setOnlyUnread] = useState(false);
  const readSign: ReadSign = onlyUnread ? 0 : -1;
  const list = useMessages(readSign);
  const unread = useUnreadSize();
  const read = useReadMessage();
  const readAll = useReadAllMessages();
  const [selectedId, setSelectedId] = useState<number | null>(null);

  // Spec §4: the first message is selected on load (and when the selected one leaves the list).
  useEffect(() => {
    const messages = list.data;
    if (!messages) return;
    setSelectedId((current) =>
      messages.some((m) => m.notifyId === current) ? current : (messages[0]?.notifyId ?? null),
    );
  }, [list.data]);

  const messages = list.data ?? [];
  const selected = messages.find((m) => m.notifyId === selectedId) ?? null;
  const unreadCount = unread.data?.unreadSize ?? messages.filter((m) => m.notifyRead === 0).length;

  // Showing a message reads it: a click, and the first one selected on load (its dot goes, the
  // count drops). markReadLocally flips notifyRead at once, so this runs once per message.
  const readMessage = read.mutate;
  const showing = selected?.notifyRead === 0 ? selected.notifyId : null;
  useEffect(() => {
    if (showing !== null) readMessage(showing);
  }, [showing, readMessage]);

  const onPick = (message: Message) => setSelectedId(message.notifyId);

  let body: ReactNode;
  if (list.isPending) body = <Spinner />;
  else if (list.isError) body = <ErrorState onRetry={() => void list.refetch()} />;
  else if (messages.length === 0)
    body = <EmptyState icon="✉" text={onlyUnread ? t("messages.emptyUnread") : t("messages.empty")} />;
  else
    body = (
      <div className="msg-body">
        <ul className="msg-list" aria-label={t("messages.list")} data-testid="message-list">
          {messages.map((m) => (
            <li key={m.notifyId}>
              <button
                type="button"
                className={clsx("msg-item", m.notifyId === selectedId && "active", m.notifyRead === 0 && "unread")}
                aria-current={m.notifyId === selectedId ? "true" : undefined}
                onClick={() => onPick(m)}
                data-testid={`message-${m.notifyId}`}
                data-read={m.notifyRead}
              >
                <span className="msg-item-head">
                  {m.notifyRead === 0 && (
                    <span className="msg-dot">
                      <span className="sr-only">{t("messages.unread")}</span>
                    </span>
                  )}
                  <span className="msg-item-title">{m.notifyTitle}</span>
                  <time className="msg-item-date" dateTime={new Date(m.sendTime * 1000).toISOString()}>
                    {formatMessageDate(m.sendTime, t("messages.yesterday"))}
                  </time>
                </span>
                <span className="msg-item-text">{m.notifyText}</span>
              </button>
            </li>
          ))}
        </ul>
        <article className="msg-detail" data-testid="message-detail" aria-live="polite">
          {selected ? (
            <>
              <h3 className="msg-detail-title">{selected.notifyTitle}</h3>
              <div className="msg-detail-meta muted">
                <span>{t("messages.from", { sender: selected.senderName })}</span>
                {/* the reader's own clock, as the list's dates (sendTimeStr is the server's zone) */}
                <span>{formatDateTime(selected.sendTime)}</span>
              </div>
              <MessageText message={selected} />
            </>
          ) : (
            <p className="muted">{t("messages.pick")}</p>
          )}
        </article>
      </div>
    );

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && messageDialog.close()}
      title={t("messages.title")}
      wide
      className="message-dialog"
      description={t("messages.unreadN", { count: unreadCount })}
    >
      <div className="msg-toolbar">
        <label className="check-label">
          <input
            type="checkbox"
            className="check"
            checked={onlyUnread}
            onChange={(e) => setOnlyUnread(e.target.checked)}
            data-testid="only-unread"
          />
          {t("messages.onlyUnread")}
        </label>
        <span className="muted msg-count" data-testid="unread-count">
          {t("messages.unreadN", { count: unreadCount })}
        </span>
        <Button
          size="sm"
          variant="secondary"
          disabled={readAll.isPending || messages.length === 0 || unreadCount === 0}
          onClick={() => readAll.mutate()}
          data-testid="read-all"
        >
          {t("messages.markAllRead")}
        </Button>
      </div>
      {body}
    </Dialog>
  );
}
