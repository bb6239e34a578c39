import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { PeoplePage } from "@/features/people/components/people-page.tsx";

/** /people: the voices the account remembers (docs/people.md). */
export default function PeopleRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.people")}>
      <RequireLogin>
        <PeoplePage />
      </RequireLogin>
    </Page>
  );
}
