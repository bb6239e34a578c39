import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useMatches } from "react-router-dom";
import { paths, type RouteHandle } from "@/config/paths.ts";

/** Builds the document title of spec §2: the route's title; /detail's `fileName` query overrides it. */
export function documentTitle(
  t: (key: string) => string,
  titleKey: string | undefined,
  pathname: string,
  search: string,
): string {
  const brand = t("brand.name");
  if (pathname === paths.detail) {
    const fileName = new URLSearchParams(search).get("fileName");
    if (fileName) return `${fileName} - ${brand}`;
  }
  if (!titleKey || titleKey === "landing") return t("titles.landing");
  return `${t(`titles.${titleKey}`)} - ${brand}`;
}

export function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const location = useLocation();
  const titleKey = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    | RouteHandle
    | undefined;
  useEffect(() => {
    document.title = documentTitle(t, titleKey?.title, location.pathname, location.search);
  }, [t, titleKey?.title, location.pathname, location.search]);
  return null;
}
