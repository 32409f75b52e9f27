/**
 * What the settings change in the page at once: theme, colours, palette,
 * font, cursor. The theme is forced by switching the stylesheets'
 * `prefers-color-scheme` rules on or off (domterm.css, ui.css and the
 * user's style.css keep a single definition of each theme); colours and
 * the font become custom properties on the root element.
 *
 * @module
 */
import type { Settings } from "../core/settings/schema.ts";
import type { Renderer } from "./renderer.ts";

/** The `media` text each colour-scheme rule had, before any theme setting. */
const originalMedia = new WeakMap<CSSMediaRule, string>();

function schemeRules(doc: Document): CSSMediaRule[] {
  const out: CSSMediaRule[] = [];
  const walk = (rules: CSSRuleList) => {
    for (const r of rules) {
      if (r instanceof CSSMediaRule) {
        const media = originalMedia.get(r) ?? r.media.mediaText;
        if (/prefers-color-scheme/.test(media)) {
          originalMedia.set(r, media);
          out.push(r);
        }
        walk(r.cssRules);
      }
    }
  };
  for (const sheet of doc.styleSheets) {
    try {
      walk(sheet.cssRules);
    } catch {
      // a sheet we may not read
    }
  }
  return out;
}

/**
 * Force the light or dark theme, or follow the system. Call again after
 * adding a stylesheet (the user's) so its rules follow too.
 */
export function applyTheme(doc: Document, theme: string): void {
  for (const r of schemeRules(doc)) {
    const media = originalMedia.get(r)!;
    let text = media;
    if (theme === "light" || theme === "dark") {
      const wantsLight = /prefers-color-scheme:\s*light/.test(media);
      const wantsDark = /prefers-color-scheme:\s*dark/.test(media);
      const on = theme === "light" ? wantsLight : wantsDark;
      text = on ? "all" : "not all";
    }
    if (r.media.mediaText !== text) r.media.mediaText = text;
  }
  doc.documentElement.dataset.dtTheme = theme;
}

/** The custom property each colour setting sets. */
export const COLOR_PROPS: Readonly<Record<string, string>> = {
  "colors.foreground": "--dt-fg",
  "colors.background": "--dt-bg",
  "colors.cursor": "--dt-cursor",
  "colors.selection": "--dt-selection",
};

/** Set or remove a custom property of the root element. */
function prop(doc: Document, name: string, value: string): void {
  const style = doc.documentElement.style;
  if (value === "") style.removeProperty(name);
  else if (style.getPropertyValue(name) !== value) {
    style.setProperty(name, value);
  }
}

/** Apply the settings that change the look. Returns true when the cell size may have changed. */
export function applyLook(
  doc: Document,
  s: Readonly<Settings>,
  changed: readonly string[],
  renderer: Renderer,
): boolean {
  if (changed.includes("theme")) applyTheme(doc, s.theme as string);
  for (const [key, name] of Object.entries(COLOR_PROPS)) {
    prop(doc, name, s[key] as string);
  }
  const palette = s.palette as string[];
  for (let i = 0; i < 16; i++) prop(doc, `--dt-color-${i}`, palette[i] ?? "");
  const family = s["font.family"] as string;
  prop(doc, "--dt-font-family", family);
  prop(doc, "--dt-font-size", `${s["font.size"]}px`);
  const style = s["cursor.style"] as "block" | "underline" | "bar";
  const blink = s["cursor.blink"] as boolean;
  renderer.defaultCursor = style === "block" && !blink
    ? null
    : { style, blink };
  renderer.schedule();
  return changed.some((k) => k.startsWith("font."));
}
