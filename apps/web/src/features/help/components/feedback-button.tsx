import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { FeedbackDialog } from "./feedback-dialog.tsx";

/** 'Feedback' beside the help centre's title: opens the feedback form (open to visitors too). */
export function FeedbackButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} data-testid="feedback-open">
        ✎ {t("feedback.open")}
      </Button>
      {open && <FeedbackDialog onClose={() => setOpen(false)} />}
    </>
  );
}
