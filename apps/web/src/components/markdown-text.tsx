import { clsx } from "clsx";
import { type ComponentProps, createElement, type ReactNode, useMemo } from "react";
import Markdown, { type Components, type ExtraProps } from "react-markdown";
import { Link, useInRouterContext } from "react-router-dom";
import remarkBreaks from "remark-breaks";
import { isExternalHref, normalizeMarkdown, opensTab, safeMarkdownUrl } from "@/lib/markdown.ts";
import "./markdown-text.css";

/** A line break inside a paragraph is one on screen too (documents are typed line by line). */
const REMARK_PLUGINS = [remarkBreaks];

/**
 * A help document's Markdown, safely: react-markdown builds React elements from the Markdown and
 * never sets HTML, so raw HTML in a document (a <script>, an onerror attribute) shows as the
 * characters it is; links and images go through safeMarkdownUrl (no javascript: or data:, images
 * only from http(s) or this site); a link off the site opens a new tab without opener or referrer.
 * Headings start at `headingLevel` (the page's own title sits above them). The help centre shows
 * documents with it, and the operator console previews them with it.
 */
export function MarkdownText({
  content,
  className,
  testId,
  headingLevel = 3,
  linksInNewTab = false,
}: {
  content: string;
  className?: string;
  testId?: string;
  /** the level a `#` heading gets (`##` one below, at most h6) */
  headingLevel?: number;
  /** every link opens a new tab (a preview beside an editor must not navigate away from it) */
  linksInNewTab?: boolean;
}) {
  const inRouter = useInRouterContext();
  const components = useMemo(
    () => markdownComponents({ headingLevel, linksInNewTab, inRouter }),
    [headingLevel, linksInNewTab, inRouter],
  );
  return (
    <div className={clsx("markdown", className)} data-testid={testId}>
      <Markdown remarkPlugins={REMARK_PLUGINS} urlTransform={safeMarkdownUrl} components={components}>
        {normalizeMarkdown(content)}
      </Markdown>
    </div>
  );
}

type Props<Tag extends keyof React.JSX.IntrinsicElements> = ComponentProps<Tag> & ExtraProps;

function markdownComponents({
  headingLevel,
  linksInNewTab,
  inRouter,
}: {
  headingLevel: number;
  linksInNewTab: boolean;
  inRouter: boolean;
}): Components {
  const heading =
    (depth: number) =>
    ({ children }: Props<"h1">) =>
      createElement(`h${Math.min(6, Math.max(1, headingLevel + depth - 1))}`, null, children);
  return {
    h1: heading(1),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    h5: heading(5),
    h6: heading(6),
    a: ({ href, title, children }: Props<"a">) => (
      <DocLink href={href} title={title} newTab={linksInNewTab} inRouter={inRouter}>
        {children}
      </DocLink>
    ),
    img: ({ src, alt, title }: Props<"img">) =>
      typeof src === "string" && src !== "" ? (
        <img src={src} alt={alt ?? ""} title={title} loading="lazy" referrerPolicy="no-referrer" />
      ) : alt ? (
        <span className="markdown-missing-image">{alt}</span>
      ) : null,
  };
}

function DocLink({
  href,
  title,
  newTab,
  inRouter,
  children,
}: {
  href: string | undefined;
  title: string | undefined;
  newTab: boolean;
  inRouter: boolean;
  children: ReactNode;
}) {
  // an address the URL rules refused (javascript:…) leaves its text, not a link
  if (!href) return <span>{children}</span>;
  if (isExternalHref(href) || newTab) {
    const tab = newTab || opensTab(href);
    return (
      <a href={href} title={title} rel="noopener noreferrer" target={tab ? "_blank" : undefined}>
        {children}
      </a>
    );
  }
  // a path of this site moves within the app (no reload)
  if (inRouter && (href.startsWith("/") || href.startsWith("?"))) {
    return (
      <Link to={href} title={title}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} title={title}>
      {children}
    </a>
  );
}
