import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/ui/dialog.tsx";
import { currentLang } from "../../lib/i18n.ts";
import { meKeys } from "../account/api.ts";
import { loginDialog, useLoginDialogOpen } from "./login-dialog-store.ts";
import { refreshSession } from "./session-store.ts";

export const LOGIN_SUCCESS = "login-success";

/** The account service's login page in a frame (ARCHITECTURE §3); its success message signs the app in. */
export function LoginDialog() {
  const open = useLoginDialogOpen();
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      if ((event.data as { type?: string } | null)?.type !== LOGIN_SUCCESS) return;
      queryClient.removeQueries({ queryKey: meKeys.all });
      refreshSession();
      loginDialog.close();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [queryClient]);

  const page = new URLSearchParams({ lang: currentLang(), redir: window.location.pathname + window.location.search });
  const invite = new URLSearchParams(window.location.search).get("invite");
  if (invite) page.set("invite", invite);

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? loginDialog.open() : loginDialog.close())}
      title={t("loginDialog.title")}
    >
      <iframe
        title={t("loginDialog.title")}
        src={`/account/login?${page.toString()}`}
        className="login-frame"
        data-testid="login-frame"
      />
    </Dialog>
  );
}
