import { clsx } from "clsx";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { navGroups } from "../lib/nav-items.ts";
import "./side-nav.css";

/** Sidebar on desktop, a horizontally scrolling strip on phones (side-nav.css). */
export function SideNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav className="side-nav" aria-label={t("brand.name")}>
      {navGroups.map((group) => (
        <div key={group.label} className="side-nav-group">
          <div className="side-nav-label">{t(group.label)}</div>
          {group.items.map((item) => {
            const active = pathname === item.to || item.alsoActive?.includes(pathname);
            return (
              <Link
                key={item.to}
                to={item.to}
                className={clsx("side-nav-item", active && "active")}
                aria-current={active ? "page" : undefined}
              >
                <span className="side-nav-icon" aria-hidden>
                  {item.icon}
                </span>
                {t(`titles.${item.title}`)}
              </Link>
            );
          })}
        </div>
      ))}
    </nav>
  );
}
