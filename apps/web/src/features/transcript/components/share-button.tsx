import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ShareDialog } from "./share-dialog.tsx";

/** /detail's Share (issue 43: in the header, where people look for it, not inside Export): the share dialog. */
export function ShareButton({ fileId }: { fileId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} data-testid="share-link">
        {t("share.button")}
      </Button>
      <ShareDialog fileId={fileId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
