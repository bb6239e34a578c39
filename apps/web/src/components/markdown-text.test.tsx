import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { normalizeMarkdown, safeMarkdownUrl } from "@/lib/markdown.ts";
import { MarkdownText } from "./markdown-text.tsx";

type Pwned = { __pwned?: unknown };
afterEach(() => {
  delete (window as Pwned).__pwned;
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function show(content: string, props: Partial<Parameters<typeof MarkdownText>[0]> = {}) {
  render(
    <MemoryRouter initialEntries={["/helpDocument"]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <MarkdownText content={content} testId="md" {...props} />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  return screen.getByTestId("md");
}

const EVIL = [
  "<script>window.__pwned = 'script'</script>",
  "",
  "<img src=x onerror=\"window.__pwned = 'img'\">",
  "",
  'Inline <img src=x onerror="window.__pwned=1"> and <a href="javascript:window.__pwned=2" onclick="window.__pwned=3">raw</a>',
  "",
  "<iframe src=\"javascript:window.__pwned=4\"></iframe><svg onload='window.__pwned=5'></svg>",
  "",
  "[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](&#106;avascript:alert(1)) [d](data:text/html;base64,PHNjcmlwdD4=)",
  "",
  "[v](vbscript:msgbox(1)) <javascript:alert(1)> [ref][r]",
  "",
  "![pic](javascript:alert(1)) ![data](data:image/svg+xml;base64,PHN2Zz4=) ![far](//evil.example/x.png)",
  "",
  "[r]: javascript:alert(1)",
].join("\n");

describe("a document's Markdown", () => {
  it("renders no script, element, handler or javascript:/data: address from what is typed", async () => {
    const md = show(EVIL);
    // raw HTML stays the characters it is
    expect(md).toHaveTextContent("<script>window.__pwned = 'script'</script>");
    expect(md).toHaveTextContent("<img src=x onerror=\"window.__pwned = 'img'\">");
    expect(md).toHaveTextContent("<svg onload='window.__pwned=5'></svg>");
    expect(md.querySelector("script, iframe, svg, object, embed, style, form, input")).toBeNull();
    for (const el of md.querySelectorAll("*")) {
      for (const attr of el.attributes) {
        expect(attr.name, `${el.tagName} ${attr.name}`).not.toMatch(/^on/i);
        expect(attr.value, `${el.tagName} ${attr.name}`).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      }
    }
    // links whose address was refused keep their text and are not links
    expect(md.querySelectorAll("a[href]")).toHaveLength(0);
    expect(md).toHaveTextContent("x y z d");
    // images only from http(s) or this site: none of these
    expect(md.querySelectorAll("img")).toHaveLength(0);
    expect(md).toHaveTextContent("pic data far");
    await new Promise((r) => setTimeout(r, 50));
    expect((window as Pwned).__pwned).toBeUndefined();
  });

  it("renders headings, lists, emphasis, code and quotes as elements; line breaks stay", () => {
    const md = show(
      [
        "# 开始",
        "",
        "Read **this** and *that*, then `npm start`.",
        "Second line.",
        "",
        "## Steps",
        "",
        "1. one",
        "2. two",
        "",
        "- a",
        "- b",
        "",
        "> quoted",
      ].join("\n"),
    );
    // headings sit below the page's own title: # is h3, ## h4
    expect(within(md).getByRole("heading", { level: 3, name: "开始" })).toBeInTheDocument();
    expect(within(md).getByRole("heading", { level: 4, name: "Steps" })).toBeInTheDocument();
    expect(md.querySelector("strong")).toHaveTextContent("this");
    expect(md.querySelector("em")).toHaveTextContent("that");
    expect(md.querySelector("code")).toHaveTextContent("npm start");
    expect(md.querySelector("p br")).not.toBeNull();
    const [ol, ul] = within(md).getAllByRole("list");
    expect(ol?.tagName).toBe("OL");
    expect(
      within(ol as HTMLElement)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["one", "two"]);
    expect(ul?.tagName).toBe("UL");
    expect(within(ul as HTMLElement).getAllByRole("listitem")).toHaveLength(2);
    expect(md.querySelector("blockquote")).toHaveTextContent("quoted");
  });

  it("opens external links in a new tab without opener or referrer; a site path moves within the app", async () => {
    const md = show(
      "[site](https://example.com/a) [mail](mailto:help@example.com) [privacy](/helpDocument?doc=privacy) ![logo](/static/logo.png) ![cdn](https://cdn.example.com/p.png)",
    );
    const external = within(md).getByRole("link", { name: "site" });
    expect(external).toHaveAttribute("href", "https://example.com/a");
    expect(external).toHaveAttribute("target", "_blank");
    expect(external).toHaveAttribute("rel", "noopener noreferrer");
    const mail = within(md).getByRole("link", { name: "mail" });
    expect(mail).toHaveAttribute("href", "mailto:help@example.com");
    expect(mail).not.toHaveAttribute("target");
    expect(within(md).getByRole("img", { name: "logo" })).toHaveAttribute("src", "/static/logo.png");
    expect(within(md).getByRole("img", { name: "cdn" })).toHaveAttribute("referrerpolicy", "no-referrer");

    const inside = within(md).getByRole("link", { name: "privacy" });
    expect(inside).toHaveAttribute("href", "/helpDocument?doc=privacy");
    expect(inside).not.toHaveAttribute("target");
    await userEvent.click(inside);
    expect(screen.getByTestId("where")).toHaveTextContent("/helpDocument?doc=privacy");
  });

  it("in a preview every link opens a new tab", () => {
    const md = show("[privacy](/helpDocument?doc=privacy)", { linksInNewTab: true });
    const link = within(md).getByRole("link", { name: "privacy" });
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("reads the seeded documents and the Chinese numbering as lists; plain lines as lines", () => {
    const md = show(
      "1. 登录后进入「音视频转文字」。\n2. 上传音频或视频文件。\n\n然后：\n1、选择语言\n2、开始转写\n\n• 甲\n· 乙\n\n第一段\n第二段",
    );
    const lists = within(md).getAllByRole("list");
    expect(lists.map((l) => l.tagName)).toEqual(["OL", "OL", "UL"]);
    expect(
      within(lists[1] as HTMLElement)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["选择语言", "开始转写"]);
    expect([...md.querySelectorAll("p")].at(-1)?.innerHTML).toBe("第一段<br>\n第二段");
  });
});

describe("the Markdown rules", () => {
  it("turns Chinese numbering and dot bullets into Markdown lists, never inside code or for decimals", () => {
    expect(normalizeMarkdown("1、一\n2）二\n3．三\n4.四\n• 五\n1.5 小时\n3.14")).toBe(
      "1. 一\n2. 二\n3. 三\n4. 四\n- 五\n1.5 小时\n3.14",
    );
    expect(normalizeMarkdown("```\n1、code\n```\n1、text")).toBe("```\n1、code\n```\n1. text");
  });

  it("keeps safe addresses, drops the rest; images only from http(s) or a path of this site", () => {
    expect(safeMarkdownUrl("javascript:alert(1)", "href")).toBeNull();
    expect(safeMarkdownUrl("data:text/html,x", "href")).toBeNull();
    expect(safeMarkdownUrl("https://example.com", "href")).toBe("https://example.com");
    expect(safeMarkdownUrl("/vip", "href")).toBe("/vip");
    expect(safeMarkdownUrl("https://example.com/a.png", "src")).toBe("https://example.com/a.png");
    expect(safeMarkdownUrl("/static/a.png", "src")).toBe("/static/a.png");
    expect(safeMarkdownUrl("//evil.example/a.png", "src")).toBeNull();
    expect(safeMarkdownUrl("/\\evil.example/a.png", "src")).toBeNull();
    expect(safeMarkdownUrl("mailto:a@b.c", "src")).toBeNull();
    expect(safeMarkdownUrl("a.png", "src")).toBeNull();
  });
});
