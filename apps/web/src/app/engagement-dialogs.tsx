import { useQueryClient } from "@tanstack/react-query";
import { type ComponentType, lazy, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router-dom";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Spinner } from "@/components/ui/states.tsx";
import { isQuietPath } from "@/features/onboarding/lib/quiet-paths.ts";
import { cashierDialog, messageDialog, rewardDialog, shopDialog } from "@/lib/app-dialogs.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Each dialog loads when it first opens: the landing page does not pay for them. */
const RewardDialog = lazy(() => import("./reward-dialog.tsx"));
const ShopDialog = lazy(() => import("@/features/shop/components/shop-dialog.tsx"));
const MessageDialog = lazy(() => import("@/features/messages/components/message-dialog.tsx"));

/**
 * The signed-in user's dialogs of spec §2 — rewards, shop, messages — mounted while open (closing
 * unmounts them). Whenever one of them, or the cashier, closes, the header's unread badge is asked
 * again: what happened inside (a reward, a purchase, a read) may have sent or read messages.
 * None of them shows over the operator console (/admin); one left open shows again outside it.
 */
export function EngagementDialogs() {
  const reward = rewardDialog.useIsOpen();
  const shop = shopDialog.useIsOpen();
  const messages = messageDialog.useIsOpen();
  const cashier = cashierDialog.useRequest() !== null;
  const quiet = isQuietPath(useLocation().pathname);
  useRefreshUnreadOnClose(reward || shop || messages || cashier);
  if (quiet) return null;
  return (
    <>
      {reward && <LazyDialog component={RewardDialog} titleKey="rewards.title" onClose={rewardDialog.close} />}
      {shop && <LazyDialog component={ShopDialog} titleKey="shop.title" onClose={shopDialog.close} />}
      {messages && <LazyDialog component={MessageDialog} titleKey="messages.title" onClose={messageDialog.close} />}
    </>
  );
}

function useRefreshUnreadOnClose(anyOpen: boolean) {
  const client = useQueryClient();
  const wasOpen = useRef(anyOpen);
  useEffect(() => {
    if (wasOpen.current && !anyOpen) void client.invalidateQueries({ queryKey: queryKeys.unread });
    wasOpen.current = anyOpen;
  }, [anyOpen, client]);
}

/** A dialog whose code is still loading shows its title over a spinner. */
function LazyDialog({
  component: Component,
  titleKey,
  onClose,
}: {
  component: ComponentType;
  titleKey: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <Dialog open onOpenChange={(open) => !open && onClose()} title={t(titleKey)} wide>
          <Spinner />
        </Dialog>
      }
    >
      <Component />
    </Suspense>
  );
}
