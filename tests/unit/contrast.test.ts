import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 43: text that failed WCAG AA's 4.5:1 — the success toasts, the share page's brand line, the
 * shop's bean prices — computed from the stylesheets as shipped (the colours each rule resolves to,
 * against the backgrounds they sit on), so a later edit of a token cannot quietly undo it.
 */

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

type Rgb = [number, number, number];

function parseColour(value: string): Rgb {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value.trim());
  if (short) return parseColour(`#${short[1]!.repeat(2)}${short[2]!.repeat(2)}${short[3]!.repeat(2)}`);
  const hex = /^#([0-9a-f]{6})$/i.exec(value.trim());
  if (hex) return [0, 2, 4].map((i) => Number.parseInt(hex[1]!.slice(i, i + 2), 16)) as Rgb;
  const hsl = /^hsl\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)%,\s*(\d+(?:\.\d+)?)%\)$/.exec(value.trim());
  if (!hsl) throw new Error(`not a colour: ${value}`);
  const [h, s, l] = [Number(hsl[1]) / 360, Number(hsl[2]) / 100, Number(hsl[3]) / 100];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)].map((v) => Math.round(v * 255)) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(parseColour(a)), luminance(parseColour(b))];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The custom properties a stylesheet (or one rule of it) sets: name → value. */
function properties(css: string): Map<string, string> {
  return new Map([...css.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

const tokens = properties(read("apps/web/src/styles/global.css"));
/** A value with `var(--x)` resolved against the design tokens. */
const resolve = (value: string): string => {
  const variable = /^var\((--[\w-]+)\)$/.exec(value.trim());
  if (!variable) return value;
  const token = tokens.get(variable[1]!);
  if (!token) throw new Error(`no token ${variable[1]}`);
  return resolve(token);
};

/** The `property` of the first rule whose selector is exactly `selector` in `css`. */
function ruleValue(css: string, selector: string, property: string): string {
  const at = css.indexOf(`${selector}{`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(at + selector.length + 1, css.indexOf("}", at));
  const match = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`).exec(body);
  if (!match) throw new Error(`no ${property} in ${selector}`);
  return match[1]!.trim();
}

describe("text contrast (WCAG AA, 4.5:1)", () => {
  it("the toasts' rich colours, on sonner's own light backgrounds", () => {
    const sonner = read("node_modules/sonner/dist/styles.css");
    const light = sonner.slice(sonner.indexOf("[data-sonner-toaster][data-sonner-theme='light'] {"));
    const backgrounds = properties(light.slice(0, light.indexOf("}")));
    const ours = properties(read("apps/web/src/components/toaster.css"));
    for (const kind of ["success", "info", "warning", "error"]) {
      const text = resolve(ours.get(`--${kind}-text`)!);
      const background = backgrounds.get(`--${kind}-bg`)!;
      // sonner's own text colour fails: the override is what makes it pass
      expect(contrast(backgrounds.get(`--${kind}-text`)!, background), kind).toBeLessThan(4.5);
      expect(contrast(text, background), kind).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("the share page: the brand line, the button, a line's time (also on the playing line)", () => {
    const page = read("apps/api/src/modules/share/page.ts");
    const style = page.slice(page.indexOf("const STYLE = `") + 15, page.indexOf("`;", page.indexOf("const STYLE")));
    const card = ruleValue(style, ".card", "background");
    const brand = ruleValue(style, ".brand", "color");
    expect(contrast(brand, card)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(brand, ruleValue(style, "body", "background"))).toBeGreaterThanOrEqual(4.5);
    expect(contrast("#ffffff", ruleValue(style, "button", "background"))).toBeGreaterThanOrEqual(4.5);
    const time = ruleValue(style, "time", "color");
    expect(contrast(time, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrast(time, ruleValue(style, "li.seg.current", "background"))).toBeGreaterThanOrEqual(4.5);
  });

  it("the shop's bean prices and balance, on a card and on the balance line", () => {
    const goods = read("apps/web/src/features/shop/components/goods-lists.css").replace(/\s+/g, " ");
    const head = read("apps/web/src/features/shop/components/shop-header.css").replace(/\s+/g, " ");
    const price = resolve(/\.shop-card-price\.beans strong \{ color: ([^;]+);/.exec(goods)![1]!);
    const balance = resolve(/\.shop-balance-value \{[^}]*color: ([^;]+);/.exec(head)![1]!);
    expect(contrast(price, resolve("var(--surface)"))).toBeGreaterThanOrEqual(4.5);
    // the balance line's gradient runs from #fff4e8 (its darker end) to #fffaf3
    expect(/linear-gradient\(100deg, #fff4e8, #fffaf3\)/.test(head)).toBe(true);
    expect(contrast(balance, "#fff4e8")).toBeGreaterThanOrEqual(4.5);
  });
});
