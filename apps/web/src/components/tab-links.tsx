import { clsx } from "clsx";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";

/** Tabs that are routes (spec §2 child routes of /audio and /voiceClone). */
export function TabLinks({ tabs }: { tabs: { to: string; title: string }[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const nav = useRef<HTMLElement>(null);
  // On a phone the six voice tabs overflow: the strip scrolls (sideways only) to show the current one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the route changes
  useEffect(() => {
    const strip = nav.current;
    const active = strip?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!strip || !active || strip.scrollWidth <= strip.clientWidth) return;
    strip.scrollLeft = active.offsetLeft - strip.offsetLeft - (strip.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);
  return (
    <nav className="tabs-list" ref={nav}>
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
