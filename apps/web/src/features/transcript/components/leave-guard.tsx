import { useContext, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { UNSAFE_DataRouterContext, useBlocker } from "react-router-dom";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";

/**
 * Leaving the transcript inside the app (a link, Back) while an edit is unsaved: what waits is sent first,
 * and the page goes on once it is saved; when it cannot be (offline, a conflict) the person is asked. Closing
 * the tab asks through the browser (hooks/use-draft-saver.ts). Outside a data router (a component test)
 * there is nothing to block.
 */
export function LeaveGuard(props: { dirty: boolean; flush: () => Promise<void> }) {
  return useContext(UNSAFE_DataRouterContext) ? <Blocker {...props} /> : null;
}

function Blocker({ dirty, flush }: { dirty: boolean; flush: () => Promise<void> }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const blocked = blocker.state === "blocked";
  useEffect(() => {
    if (blocked) void flush();
  }, [blocked, flush]);
  // saved meanwhile: on to where the person was going
  useEffect(() => {
    if (blocked && !dirty) blocker.proceed?.();
  }, [blocked, dirty, blocker]);

  return (
    <ConfirmDialog
      open={blocked}
      title={t("transcript.leaveTitle")}
      text={t("transcript.leaveText")}
      confirmLabel={t("transcript.leaveConfirm")}
      danger
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
