import * as RadixDialog from "@radix-ui/react-dialog";
import type { AdminMe } from "@yuelu/contracts";
import { clsx } from "clsx";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { paths } from "@/config/paths.ts";
import { currentLang, setLang } from "@/lib/i18n.ts";
import { displayNickname } from "@/utils/nickname.ts";
import { ADMIN_AREAS, adminPath, areaOf } from "../lib/areas.ts";
import "./admin.css";

/**
 * The console's frame: a top bar (the operator, the version, the language, back to the app), the
 * areas on the side on a desktop and in a drawer behind ☰ on a phone, and the area's page.
 */
export function AdminLayout({ me, children }: { me: AdminMe; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // a link followed in the drawer closes it
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the address changes
  useEffect(() => setMenuOpen(false), [pathname]);
  const area = areaOf(pathname);

  return (
    <div className="admin" data-testid="admin-console">
      <header className="admin-top">
        {/* a plain button, not Radix's Trigger: that would bring its code into the app's entry chunk */}
        <button
          type="button"
          className="admin-menu-button"
          aria-label={t("admin.nav.open")}
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
        >
          ☰
        </button>
        <RadixDialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="dialog-overlay" />
            <RadixDialog.Content className="admin-drawer" data-testid="admin-drawer">
              <RadixDialog.Title className="admin-drawer-title">{t("admin.title")}</RadixDialog.Title>
              <RadixDialog.Description className="sr-only">{t("admin.nav.label")}</RadixDialog.Description>
              <RadixDialog.Close className="dialog-close" aria-label={t("common.close")}>
                ×
              </RadixDialog.Close>
              <AreaNav current={area} />
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>
        <Link to={paths.admin} className="admin-brand">
          {t("brand.name")} <span>{t("admin.title")}</span>
        </Link>
        <div className="admin-top-end">
          <span className="admin-operator muted" title={me.phone}>
            {displayNickname(me.nickName, i18n.language) || me.phone}
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setLang(currentLang() === "zh" ? "en" : "zh")}
            lang={currentLang() === "zh" ? "en" : "zh"}
          >
            {currentLang() === "zh" ? "EN" : "中文"}
          </button>
          <Link to={paths.transaudio} className="btn btn-secondary btn-sm">
            {t("admin.nav.backToApp")}
          </Link>
        </div>
      </header>
      <div className="admin-body">
        <aside className="admin-side">
          <AreaNav current={area} />
          <p className="admin-version muted" data-testid="admin-version">
            {t("admin.version", { version: me.version })}
          </p>
        </aside>
        <main className="admin-main">{children}</main>
      </div>
    </div>
  );
}

function AreaNav({ current }: { current: string }) {
  const { t } = useTranslation();
  return (
    <nav className="admin-nav" aria-label={t("admin.nav.label")}>
      {ADMIN_AREAS.map((a) => (
        <Link
          key={a.id}
          to={adminPath(a.id)}
          className={clsx("admin-nav-item", current === a.id && "active")}
          aria-current={current === a.id ? "page" : undefined}
          data-testid={`admin-nav-${a.id}`}
        >
          <span className="admin-nav-icon" aria-hidden>
            {a.icon}
          </span>
          {t(`admin.areas.${a.id}`)}
        </Link>
      ))}
    </nav>
  );
}

/** An area's page: its title, what acts on it (a 'new' button) and its content. */
export function AdminPage({
  title,
  actions,
  children,
  testId,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="admin-page" data-testid={testId}>
      <div className="admin-page-head">
        <h1 className="page-title">{title}</h1>
        {actions && <div className="admin-page-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** A titled card inside an area's page. */
export function AdminSection({
  title,
  actions,
  children,
  testId,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="card admin-section" data-testid={testId}>
      {(title || actions) && (
        <div className="admin-section-head">
          {title && <h2 className="section-title">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
