import type { ShareLink } from "@yuelu/contracts";
import {
  SHARE_DEFAULT_EXPIRE_DAYS,
  SHARE_EXPIRE_DAYS,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_MIN,
  type ShareExpireDays,
} from "@yuelu/contracts/constants";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useCreateShareLink, useRevokeShareLink, useShareLinks } from "../api/share-links.ts";
import "./share-dialog.css";

const EXPIRY_LABEL: Record<ShareExpireDays, string> = {
  1: "share.days1",
  7: "share.days7",
  30: "share.days30",
  0: "share.never",
};

/**
 * The record's read-only public links (docs/share.md): make one (expiry, optional password, with or
 * without the audio), copy it, see each link's expiry, views, password and audio, revoke it.
 */
export function ShareDialog({ fileId, open, onClose }: { fileId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const links = useShareLinks(fileId, open);
  const create = useCreateShareLink(fileId);
  const revoke = useRevokeShareLink(fileId);
  const [expireDays, setExpireDays] = useState<ShareExpireDays>(SHARE_DEFAULT_EXPIRE_DAYS);
  const [password, setPassword] = useState("");
  const [withAudio, setWithAudio] = useState(true);
  const [made, setMade] = useState<ShareLink | null>(null);
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  const passwordBad = password !== "" && (password.length < SHARE_PASSWORD_MIN || password.length > SHARE_PASSWORD_MAX);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (passwordBad) return;
    create.mutate(
      { expireDays, password, withAudio },
      {
        onSuccess: (link) => {
          setMade(link);
          setPassword("");
          toast.success(t("share.created"));
        },
      },
    );
  };

  const close = () => {
    setMade(null);
    onClose();
  };

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={(o) => !o && close()}
        title={t("share.title")}
        wide
        description={t("share.intro")}
      >
        <div className="share-dialog" data-testid="share-dialog">
          <p className="muted share-intro">{t("share.intro")}</p>
          <form className="share-form" onSubmit={submit} noValidate>
            <fieldset className="share-expiry">
              <legend>{t("share.expiry")}</legend>
              {SHARE_EXPIRE_DAYS.map((days) => (
                <label key={days} className="share-chip">
                  <input
                    type="radio"
                    name={`${ids}-expiry`}
                    value={days}
                    checked={expireDays === days}
                    onChange={() => setExpireDays(days)}
                    data-testid={`share-expiry-${days}`}
                  />
                  {t(EXPIRY_LABEL[days])}
                </label>
              ))}
            </fieldset>
            <label className="share-field" htmlFor={`${ids}-password`}>
              {t("share.password")}
            </label>
            <input
              id={`${ids}-password`}
              className="input"
              type="text"
              autoComplete="off"
              maxLength={SHARE_PASSWORD_MAX}
              value={password}
              placeholder={t("share.passwordPlaceholder")}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={passwordBad}
              aria-describedby={passwordBad ? `${ids}-password-error` : undefined}
              data-testid="share-password"
            />
            {passwordBad && (
              <p id={`${ids}-password-error`} className="share-error" role="alert">
                {t("share.passwordInvalid", { min: SHARE_PASSWORD_MIN, max: SHARE_PASSWORD_MAX })}
              </p>
            )}
            <label className="share-check">
              <input
                type="checkbox"
                checked={withAudio}
                onChange={(e) => setWithAudio(e.target.checked)}
                data-testid="share-with-audio"
              />
              {t("share.withAudio")}
            </label>
            <div className="dialog-actions">
              <Button type="submit" disabled={create.isPending || passwordBad} data-testid="share-create">
                {create.isPending ? t("share.creating") : t("share.create")}
              </Button>
            </div>
          </form>

          {made && (
            <div className="share-made" data-testid="share-new">
              <span className="share-made-label">{t("share.newLink")}</span>
              <div className="share-url-row">
                <code className="share-url" data-testid="share-new-url">
                  {made.url}
                </code>
                <CopyButton text={made.url} testId="share-copy" />
              </div>
            </div>
          )}

          <h3 className="share-list-title">{t("share.listTitle")}</h3>
          <ShareList
            links={links.data?.list}
            pending={links.isPending}
            error={links.isError}
            retry={() => void links.refetch()}
            onRevoke={setRevoking}
          />
        </div>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t("share.revokeTitle")}
        text={t("share.revokeText")}
        confirmLabel={revoke.isPending ? t("share.revoking") : t("share.revoke")}
        danger
        pending={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              if (made?.id === revoking.id) setMade(null);
              setRevoking(null);
              toast.success(t("share.revoked"));
            },
          })
        }
        onClose={() => setRevoking(null)}
      />
    </>
  );
}

function ShareList({
  links,
  pending,
  error,
  retry,
  onRevoke,
}: {
  links: ShareLink[] | undefined;
  pending: boolean;
  error: boolean;
  retry: () => void;
  onRevoke: (link: ShareLink) => void;
}) {
  const { t } = useTranslation();
  if (pending) return <Spinner />;
  if (error || !links) return <ErrorState onRetry={retry} message={t("share.loadFailed")} />;
  if (links.length === 0) return <EmptyState text={t("share.empty")} />;
  return (
    <ul className="share-list" data-testid="share-list">
      {links.map((link) => (
        <li key={link.id} className="share-item" data-testid={`share-link-${link.id}`}>
          <code className="share-url">{link.url}</code>
          <div className="share-meta muted">
            <span>
              {link.state === "expired"
                ? t("share.expired")
                : link.expireTime
                  ? t("share.expiresAt", { time: formatDateTime(link.expireTime) })
                  : t("share.neverExpires")}
            </span>
            <span data-testid="share-views">{t("share.views", { count: link.viewCount })}</span>
            <span>{link.hasPassword ? t("share.hasPassword") : t("share.noPassword")}</span>
            <span>{link.withAudio ? t("share.audioYes") : t("share.audioNo")}</span>
          </div>
          <div className="share-actions">
            <CopyButton text={link.url} />
            <Button size="sm" variant="ghost" onClick={() => onRevoke(link)} data-testid={`share-revoke-${link.id}`}>
              {t("share.revoke")}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
