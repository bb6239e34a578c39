import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { FeedbackButton } from "@/features/help/components/feedback-button.tsx";
import { HelpCenter } from "@/features/help/components/help-center.tsx";

/** Spec §2 /helpDocument: the help documents (`doc` selects one by slug) and the feedback form. */
export default function HelpDocumentPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.helpDocument")} actions={<FeedbackButton />}>
      <HelpCenter />
    </Page>
  );
}
