import { clsx } from "clsx";
import { lazy, type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { CoinDetail } from "@/features/account/components/bean-detail.tsx";
import { DeleteAccount } from "@/features/account/components/delete-account.tsx";
import { MembershipCard } from "@/features/account/components/membership-card.tsx";
import { Profile } from "@/features/account/components/profile.tsx";
import { OrderList } from "@/features/cashier/components/order-list.tsx";
import { TimeCardList } from "@/features/cashier/components/time-card-list.tsx";
import { QuotaBars } from "@/features/layout/components/quota-bars.tsx";
import "./personal-info.css";

/** API keys and webhooks: their own chunk, loaded when the section is opened. */
const IntegrationsSettings = lazy(() => import("@/features/integrations/components/integrations-settings.tsx"));

/**
 * The personal centre's sections, chosen by `?menu=` (none: the first). Spec §2 fixes
 * `menu=coinDetail` for the bean details; a feature that adds a section (bean details, messages…)
 * adds a row here.
 */
const SECTIONS: { menu: string; title: string; render: () => ReactNode }[] = [
  {
    menu: "profile",
    title: "personal.menuProfile",
    render: () => <ProfileSection />,
  },
  { menu: "orders", title: "personal.menuOrders", render: () => <OrderList /> },
  { menu: "timeCards", title: "personal.menuTimeCards", render: () => <TimeCardList /> },
  { menu: "coinDetail", title: "personal.coinDetail", render: () => <CoinDetail /> },
  {
    menu: "developer",
    title: "integrations.menu",
    render: () => (
      <Suspense fallback={<Spinner />}>
        <IntegrationsSettings />
      </Suspense>
    ),
  },
  { menu: "account", title: "personal.menuAccount", render: () => <DeleteAccount /> },
];

/**
 * On phones the menu is a strip that scrolls sideways: the current section's tab is brought into
 * it (`?menu=coinDetail` opens on the fourth tab, off the strip's right edge), the page itself not moved.
 */
function scrollIntoStrip(link: HTMLAnchorElement | null) {
  const strip = link?.parentElement;
  if (!link || !strip || strip.scrollWidth <= strip.clientWidth) return;
  const left = link.offsetLeft - strip.offsetLeft;
  if (left < strip.scrollLeft || left + link.offsetWidth > strip.scrollLeft + strip.clientWidth) {
    strip.scrollLeft = Math.max(0, left - 16);
  }
}

/** The profile, the membership state and the quotas. */
function ProfileSection() {
  const { t } = useTranslation();
  return (
    <div className="profile">
      <Profile />
      <div className="profile-side">
        <MembershipCard />
        <section>
          <h2 className="section-title">{t("personal.quotas")}</h2>
          <QuotaBars />
        </section>
      </div>
    </div>
  );
}

/** Spec §2 /personalInfo: a menu of sections; `menu=coinDetail` opens the bean details. */
export default function PersonalInfoPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const current = SECTIONS.find((s) => s.menu === params.get("menu")) ?? SECTIONS[0]!;
  return (
    <Page title={t("personal.title")}>
      <RequireLogin>
        <div className="personal">
          <nav className="personal-menu" aria-label={t("personal.menu")}>
            {SECTIONS.map((s, i) => (
              <Link
                key={s.menu}
                to={i === 0 ? paths.personalInfo : `${paths.personalInfo}?menu=${s.menu}`}
                className={clsx(s === current && "active")}
                aria-current={s === current ? "page" : undefined}
                data-testid={`menu-${s.menu}`}
                ref={s === current ? scrollIntoStrip : undefined}
              >
                {t(s.title)}
              </Link>
            ))}
          </nav>
          <div className="personal-section" data-testid={`section-${current.menu}`}>
            {current.render()}
          </div>
        </div>
      </RequireLogin>
    </Page>
  );
}
