import { useQueryClient } from "@tanstack/react-query";
import { LOGIN_SIZE_MESSAGE, LOGIN_SUCCESS_MESSAGE } from "@yuelu/contracts/constants";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "@/components/ui/dialog.tsx";
import { deletionStatusQuery } from "@/lib/account.ts";
import { loginDialog } from "@/lib/app-dialogs.ts";
import { currentLang } from "@/lib/i18n.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { refreshSession } from "@/lib/session.ts";
import "./login-dialog.css";

/** Until the page says how tall it is (it does on load and on every change). */
const FRAME_HEIGHT = 470;

/**
 * The account service's login page in a frame (ARCHITECTURE §3); its success message signs the app
 * in, and its size message makes the frame as tall as the page, so nothing (the consent line) is cut
 * off at any width; on a short screen the dialog scrolls instead.
 */
export function LoginDialog() {
  const open = loginDialog.useIsOpen();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
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
      queryClient.removeQueries({ queryKey: queryKeys.me });
      // The account gate waits for the deletion status; asked before the session changes, the
      // page stays on screen instead of giving way to the gate's spinner.
      void queryClient
        .fetchQuery(deletionStatusQuery)
        .catch(() => {})
        .finally(() => {
          refreshSession();
          loginDialog.close();
        });
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [queryClient]);

  const page = new URLSearchParams({ lang: currentLang(), redir: window.location.pathname + window.location.search });
  const invite = new URLSearchParams(window.location.search).get("invite");
  if (invite) page.set("invite", invite);

  return (
    <Dialog open={open} onOpenChange={loginDialog.setOpen} title={t("loginDialog.title")}>
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
