import { clsx } from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { paths } from "@/config/paths.ts";
import { CoinDetail, Profile } from "@/features/account/components/profile.tsx";
import { OrderList } from "@/features/cashier/components/order-list.tsx";
import { TimeCardList } from "@/features/cashier/components/time-card-list.tsx";
import { QuotaBars } from "@/features/layout/components/quota-bars.tsx";
import "./personal-info.css";

/**
 * The personal centre's sections, chosen by `?menu=` (none: the first). Spec §2 fixes
 * `menu=coinDetail` for the bean details; a feature that adds a section (bean details, messages…)
 * adds a row here.
 */
const SECTIONS: { menu: string; title: string; render: () => ReactNode }[] = [
  {
    menu: "profile",
    title: "personal.menuProfile",
    render: () => (
      <div className="profile">
        <Profile />
        <QuotaBars />
      </div>
    ),
  },
  { menu: "orders", title: "personal.menuOrders", render: () => <OrderList /> },
  { menu: "timeCards", title: "personal.menuTimeCards", render: () => <TimeCardList /> },
  { menu: "coinDetail", title: "personal.coinDetail", render: () => <CoinDetail /> },
];

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
