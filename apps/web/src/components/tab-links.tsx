import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";

/** Tabs that are routes (spec §2 child routes of /audio and /voiceClone). */
export function TabLinks({ tabs }: { tabs: { to: string; title: string }[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav className="tabs-list">
      {tabs.map((tab) => (
        <Link
          key={tab.to}
          to={tab.to}
          className={clsx(pathname === tab.to && "active")}
          aria-current={pathname === tab.to ? "page" : undefined}
        >
          {t(`titles.${tab.title}`)}
        </Link>
      ))}
    </nav>
  );
}
