/**
 * What the settings change in the page at once: theme, colours, palette,
 * font, cursor. The theme is forced by switching the stylesheets'
 * `prefers-color-scheme` rules on or off (domterm.css, ui.css and the
 * user's style.css keep a single definition of each theme); colours and
 * the font become custom properties on the root element.
 *
 * @module
 */
import { BOLD_PLAIN_CLASS } from "./colors.ts";
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

/** Id of the `<style>` that holds the settings' custom properties. */
export const SETTINGS_STYLE_ID = "dt-settings-style";

/**
 * The `:root` rule of the settings' own `<style>`, placed right after the
 * stylesheet links: over domterm.css and ui.css (both themes), under the
 * user's style.css, which is added later as the last style of the page.
 * Values go in through the CSSOM, so none can end the rule.
 */
function rootRule(doc: Document): CSSStyleRule | null {
  let el = doc.getElementById(SETTINGS_STYLE_ID) as HTMLStyleElement | null;
  if (el === null) {
    el = doc.createElement("style");
    el.id = SETTINGS_STYLE_ID;
    el.textContent = ":root {}";
    const links = doc.head.querySelectorAll("link[rel=stylesheet]");
    const last = links[links.length - 1];
    if (last) last.after(el);
    else doc.head.prepend(el);
  }
  const rule = el.sheet?.cssRules[0];
  return rule instanceof CSSStyleRule ? rule : null;
}

/** Set or remove a custom property of the settings' rule. */
function prop(rule: CSSStyleRule, name: string, value: string): void {
  const style = rule.style;
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
  const rule = rootRule(doc);
  if (rule !== null) {
    for (const [key, name] of Object.entries(COLOR_PROPS)) {
      prop(rule, name, s[key] as string);
    }
    const palette = s.palette as string[];
    for (let i = 0; i < 16; i++) {
      prop(rule, `--dt-color-${i}`, palette[i] ?? "");
    }
    prop(rule, "--dt-font-family", s["font.family"] as string);
    prop(rule, "--dt-font-size", `${s["font.size"]}px`);
  }
  renderer.root.classList.toggle(
    BOLD_PLAIN_CLASS,
    s["bold-is-bright"] === false,
  );
  const style = s["cursor.style"] as "block" | "underline" | "bar";
  const blink = s["cursor.blink"] as boolean;
  renderer.defaultCursor = style === "block" && !blink
    ? null
    : { style, blink };
  renderer.schedule();
  return changed.some((k) => k.startsWith("font."));
}
