import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { paths } from "@/config/paths.ts";
import { SearchView } from "@/features/search/components/search-view.tsx";
import { detailHref } from "@/features/search/lib/highlight.ts";
import { AskPanel } from "@/features/transcript/components/ask-panel.tsx";

/** A passage found across records opens its record playing from it, as a search hit does. */
const askTarget = {
  hrefOf: (p: { fileId: number; fileName: string; startTime: number }) =>
    detailHref(paths.detail, { fileId: p.fileId, fileName: p.fileName, startTime: p.startTime, q: "" }),
};

/** /search?q=: every record's transcript, name, speakers and summary (issue 23); ?mode=ask asks them (issue 24). */
export default function SearchPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.search")}>
      <RequireLogin>
        <SearchView detailPath={paths.detail} ask={<AskPanel target={askTarget} />} />
      </RequireLogin>
    </Page>
  );
}
