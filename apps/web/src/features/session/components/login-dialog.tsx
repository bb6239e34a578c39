import { useQueryClient } from "@tanstack/react-query";
import { LOGIN_SIZE_MESSAGE, LOGIN_SUCCESS_MESSAGE } from "@yuelu/contracts/constants";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { Dialog } from "@/components/ui/dialog.tsx";
import { deletionStatusQuery } from "@/lib/account.ts";
import { loginDialog } from "@/lib/app-dialogs.ts";
import { currentLang } from "@/lib/i18n.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { refreshSession } from "@/lib/session.ts";
import {
  dropSignInIntent,
  INVITE_PARAM,
  peekSignInIntent,
  pendingInvite,
  takeSignInIntent,
} from "@/lib/sign-in-intent.ts";
import "./login-dialog.css";

/** Until the page says how tall it is (it does on load and on every change). */
const FRAME_HEIGHT = 470;

/**
 * The account service's login page in a frame (ARCHITECTURE §3); its success message signs the app
 * in, and its size message makes the frame as tall as the page, so nothing (the consent line) is cut
 * off at any width; on a short screen the dialog scrolls instead.
 * Signed in, the visitor is where they were going (issue 43): the page that asked for the sign-in
 * with `signInTo` (lib/sign-in-intent.ts), else the page they are on. An invite code the tab arrived
 * with (`?invite=`) goes to the login page, which shows it and sends it with the sign-up.
 */
export function LoginDialog() {
  const open = loginDialog.useIsOpen();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(FRAME_HEIGHT);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as { type?: string; height?: unknown } | null;
      if (data?.type === LOGIN_SIZE_MESSAGE && event.source === frame.current?.contentWindow) {
        if (typeof data.height === "number" && data.height > 0) setHeight(Math.min(Math.ceil(data.height), 2000));
        return;
      }
      if (data?.type !== LOGIN_SUCCESS_MESSAGE) return;
      const next = takeSignInIntent();
      queryClient.removeQueries({ queryKey: queryKeys.me });
      // The account gate waits for the deletion status; asked before the session changes, the
      // page stays on screen instead of giving way to the gate's spinner.
      void queryClient
        .fetchQuery(deletionStatusQuery)
        .catch(() => {})
        .finally(() => {
          refreshSession();
          loginDialog.close();
          if (next) navigate(next);
        });
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [queryClient, navigate]);

  const redir = peekSignInIntent() ?? location.pathname + location.search;
  const page = new URLSearchParams({ lang: currentLang(), redir });
  const invite = pendingInvite(location.search);
  if (invite) page.set(INVITE_PARAM, invite);

  const onOpenChange = (value: boolean) => {
    // closed without signing in: a later sign-in (the header's) stays where the visitor is
    if (!value) dropSignInIntent();
    loginDialog.setOpen(value);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("loginDialog.title")}>
      <iframe
        ref={frame}
        style={{ height }}
        title={t("loginDialog.title")}
        src={`/account/login?${page.toString()}`}
        className="login-frame"
        data-testid="login-frame"
      />
    </Dialog>
  );
}
