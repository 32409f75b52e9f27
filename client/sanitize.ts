/**
 * Sanitizer for HTML that a program prints (OSC 72 / OSC 721). That HTML is
 * untrusted: it is parsed and filtered by DOMPurify with an explicit
 * allow-list, then a second pass of ours enforces the URL and CSS policy
 * with the browser's own URL and CSS parsers. See docs/html-output.md.
 *
 * Browser only (needs a DOM).
 *
 * @module
 */
import DOMPurify from "dompurify";
import type { Config, DOMPurify as Purifier, WindowLike } from "dompurify";
import { BLOCK_TAGS } from "../core/emulator/html_tags.ts";

/** The outcome of {@link sanitizeHtml}. */
export interface SanitizeResult {
  /** The safe content (a DocumentFragment), or null when the fragment was rejected. */
  fragment: DocumentFragment | null;
  /** Why content was removed or the fragment rejected (for a visible notice), empty if nothing was removed. */
  removed: string[];
  /**
   * True when the sanitized content contains a block-level element (one of
   * `BLOCK_TAGS` in core/emulator/html_tags.ts: div, table, svg, img, p, pre,
   * ul, ol, h1-h6, blockquote, figure, hr...). The renderer does not read it:
   * where a fragment is drawn follows the core's decision on the same list
   * (`isBlockHtml`, a line's `extras.block`).
   */
  block: boolean;
}

/** Options of {@link sanitizeHtml}. */
export interface SanitizeOptions {
  /** Longest accepted input in UTF-16 code units; default 1 MiB. */
  maxLength?: number;
}

/** Default cap on the input length. */
export const DEFAULT_MAX_LENGTH = 1024 * 1024;

/** Prefix that DOMPurify's SANITIZE_NAMED_PROPS puts on every id. */
const ID_PREFIX = "user-content-";
/** At most this many distinct reasons are reported (the rest are counted). */
const MAX_REASONS = 32;

const HTML_NS = "http://www.w3.org/1999/xhtml";
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * HTML elements that may appear. No forms, frames, media, scripting or
 * metadata; of the form controls only those that send nothing anywhere by
 * themselves (buttons, checkboxes, radios, text inputs and selects: see
 * {@link checkInteractive}), which the element-event mode lets talk to the
 * program that printed them (docs/interactive.md).
 */
const HTML_TAGS = [
  "a",
  "abbr",
  "address",
  "article",
  "aside",
  "b",
  "bdi",
  "bdo",
  "big",
  "blockquote",
  "br",
  "button",
  "caption",
  "center",
  "cite",
  "code",
  "col",
  "colgroup",
  "data",
  "dd",
  "del",
  "details",
  "dfn",
  "div",
  "dl",
  "dt",
  "em",
  "figcaption",
  "figure",
  "font",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "i",
  "img",
  "input",
  "ins",
  "kbd",
  "label",
  "li",
  "main",
  "mark",
  "nav",
  "ol",
  "optgroup",
  "option",
  "p",
  "pre",
  "q",
  "rp",
  "rt",
  "ruby",
  "s",
  "samp",
  "section",
  "select",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "time",
  "tr",
  "tt",
  "u",
  "ul",
  "var",
  "wbr",
]; // deno-fmt-ignore

/**
 * SVG elements that may appear: shapes, text, paint servers, clipping and
 * filters. No script, style, foreignObject, animation (animate, set,
 * animateMotion, animateTransform can rewrite href), feImage, or title/desc
 * (whose names collide with HTML elements that DOMPurify cannot tell apart).
 */
const SVG_TAGS = [
  "svg", "g", "defs", "symbol", "use", "switch", "circle", "ellipse", "line",
  "path", "polygon", "polyline", "rect", "text", "tspan", "textpath", "image",
  "lineargradient", "radialgradient", "stop", "pattern", "clippath", "mask",
  "marker", "filter", "feblend", "fecolormatrix", "fecomponenttransfer",
  "fecomposite", "feconvolvematrix", "fediffuselighting", "fedisplacementmap",
  "fedistantlight", "fedropshadow", "feflood", "fefunca", "fefuncb",
  "fefuncg", "fefuncr", "fegaussianblur", "femerge", "femergenode",
  "femorphology", "feoffset", "fepointlight", "fespecularlighting",
  "fespotlight", "fetile", "feturbulence",
]; // deno-fmt-ignore

/** Attributes that may appear (on any allowed element; URL attributes are checked per element afterwards). */
const ATTRS = [
  // global
  "class", "id", "title", "lang", "dir", "style", "role", "hidden",
  "translate", "replace-key",
  // HTML
  "href", "src", "target", "alt", "width", "height", "align", "valign",
  "border", "cellpadding", "cellspacing", "colspan", "rowspan", "span",
  "scope", "headers", "abbr", "start", "reversed", "type", "value", "open",
  "datetime", "color", "face", "size", "bgcolor", "nowrap", "char",
  "charoff", "clear", "noshade", "hspace", "vspace", "loading", "decoding",
  // form controls (no form, action, formaction, autofocus or tabindex)
  "checked", "selected", "disabled", "placeholder", "maxlength", "name",
  "label",
  // SVG
  "xlink:href", "xmlns", "xmlns:xlink", "version", "viewbox",
  "preserveaspectratio", "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r",
  "rx", "ry", "d", "points", "pathlength", "transform", "fill",
  "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
  "stroke-linecap", "stroke-linejoin", "stroke-dasharray",
  "stroke-dashoffset", "stroke-miterlimit", "opacity", "visibility",
  "display", "overflow", "vector-effect", "paint-order", "shape-rendering",
  "text-rendering", "color-interpolation", "font-family", "font-size",
  "font-style", "font-weight", "font-variant", "letter-spacing",
  "word-spacing", "text-anchor", "text-decoration", "dominant-baseline",
  "alignment-baseline", "baseline-shift", "writing-mode", "dx", "dy",
  "rotate", "textlength", "lengthadjust", "startoffset", "method", "spacing",
  "side", "offset", "stop-color", "stop-opacity", "gradientunits",
  "gradienttransform", "spreadmethod", "fx", "fy", "fr", "patternunits",
  "patterncontentunits", "patterntransform", "markerwidth", "markerheight",
  "markerunits", "refx", "refy", "orient", "marker-start", "marker-mid",
  "marker-end", "clip-path", "clip-rule", "clippathunits", "mask",
  "maskunits", "maskcontentunits", "filter", "filterunits", "primitiveunits",
  "in", "in2", "result", "stddeviation", "mode", "operator", "k1", "k2",
  "k3", "k4", "values", "flood-color", "flood-opacity", "lighting-color",
  "color-interpolation-filters", "edgemode", "kernelmatrix", "order",
  "divisor", "bias", "targetx", "targety", "preservealpha", "radius",
  "scale", "xchannelselector", "ychannelselector", "basefrequency",
  "numoctaves", "seed", "stitchtiles", "tablevalues", "slope", "intercept",
  "amplitude", "exponent", "surfacescale", "diffuseconstant",
  "specularconstant", "specularexponent", "azimuth", "elevation",
  "pointsatx", "pointsaty", "pointsatz", "limitingconeangle", "z",
]; // deno-fmt-ignore

/** SVG elements whose href may only point inside the fragment (#id). */
const FRAGMENT_REF_TAGS = new Set([
  "use", "textpath", "lineargradient", "radialgradient", "pattern", "filter",
]); // deno-fmt-ignore

/** data: URLs that are images. SVG only as <img src>, where it cannot run script or load anything. */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp)[;,]/i;
const DATA_IMAGE_SVG = /^data:image\/svg\+xml[;,]/i;

/**
 * DOMPurify's own scheme filter (first line of defence): http(s), mailto,
 * file or scheme-less. Our URL pass below decides per element.
 */
const ALLOWED_URI_REGEXP =
  /^(?:(?:https?|mailto|file):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  // "body" is the root DOMPurify walks (never part of the result).
  ALLOWED_TAGS: ["body", ...HTML_TAGS, ...SVG_TAGS],
  ALLOWED_ATTR: ATTRS,
  // No MathML at all: its namespace is the home of most mutation XSS.
  ALLOWED_NAMESPACES: [HTML_NS, SVG_NS],
  ALLOWED_URI_REGEXP,
  ALLOW_DATA_ATTR: true,
  ALLOW_ARIA_ATTR: true,
  // Keep a leading <base>/<style>/<meta> in the body, so it is seen and reported.
  FORCE_BODY: true,
  KEEP_CONTENT: true,
  // Prefix id/name so they cannot clobber window/document properties.
  SANITIZE_NAMED_PROPS: true,
  SANITIZE_DOM: true,
  SAFE_FOR_XML: true,
  RETURN_DOM_FRAGMENT: true,
};

/** Per-call state that the DOMPurify hook fills in. */
interface CallState {
  /** The resolved http(s) base from the first <base href>, if any. */
  base: URL | null;
  /** <base> elements whose removal is expected and not worth a notice. */
  quietRemovals: Set<Node>;
  /** Extra reasons found by the hook. */
  reasons: string[];
  /** Whether a <base> was already seen (only the first one counts). */
  sawBase: boolean;
}

let purifier: Purifier | undefined;
let state: CallState | undefined;

/** The private DOMPurify instance with our hooks (hooks are global per instance). */
function getPurifier(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(globalThis as unknown as WindowLike);
  if (!p.isSupported) throw new Error("DOMPurify is not supported here");
  p.addHook("uponSanitizeElement", (node, event) => {
    if (event.tagName !== "base" || !state) return;
    // Read the first <base href> for relative URLs, then DOMPurify drops the element.
    const el = node as Element;
    if (state.sawBase) return;
    state.sawBase = true;
    const href = el.getAttribute("href");
    if (href === null) return;
    const base = parseBase(href);
    if (base) {
      state.base = base;
      state.quietRemovals.add(node);
    } else {
      state.reasons.push(
        `<base href> ignored (only an absolute http(s) URL counts)`,
      );
    }
  });
  // `name` groups radio buttons (prefixed like ids): on inputs only.
  p.addHook("uponSanitizeAttribute", (node, data) => {
    if (data.attrName === "name" && node.nodeName !== "INPUT") {
      data.keepAttr = false;
    }
  });
  return purifier = p;
}

/** An absolute http(s) URL, or null. */
function parseBase(href: string): URL | null {
  const v = trimUrl(href);
  if (!/^https?:/i.test(v)) return null;
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

/** What the URL parser ignores: leading/trailing C0 controls and spaces, tabs and newlines anywhere. */
function trimUrl(v: string): string {
  // deno-lint-ignore no-control-regex
  return v.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(
    /[\t\n\r]/g,
    "",
  );
}

/** The scheme of a URL-ish string, lowercased, or "" when relative. */
function schemeOf(v: string): string {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(trimUrl(v));
  return m ? m[1].toLowerCase() : "";
}

function prefixId(id: string): string {
  return id === "" || id.startsWith(ID_PREFIX) ? id : ID_PREFIX + id;
}

/** What an URL attribute may point to. */
type UrlKind = "link" | "image" | "img" | "fragment";

/**
 * Checks one URL with the browser's URL parser (so encoding, case and
 * whitespace tricks resolve exactly as they would when used). Returns the
 * value to keep or a reason to drop it.
 */
function checkUrl(
  raw: string,
  kind: UrlKind,
  base: URL | null,
): { keep: string } | { why: string } {
  const v = trimUrl(raw);
  if (v.startsWith("#")) return { keep: "#" + prefixId(v.slice(1)) };
  if (kind === "fragment") return { why: "a URL other than #fragment" };
  const scheme = schemeOf(v);
  let url: URL;
  try {
    if (scheme) url = new URL(v);
    else if (base) url = new URL(v, base);
    else {
      // It would resolve against the terminal's own origin.
      return { why: "a relative URL without <base href>" };
    }
  } catch {
    return { why: "a malformed URL" };
  }
  const p = url.protocol;
  if (p === "http:" || p === "https:") return { keep: url.href };
  if (kind === "link" && (p === "mailto:" || p === "file:")) {
    return { keep: url.href };
  }
  if (
    p === "data:" && kind !== "link" &&
    (DATA_IMAGE.test(v) || (kind === "img" && DATA_IMAGE_SVG.test(v)))
  ) return { keep: v };
  return { why: `a ${p} URL` };
}

/** CSS functions and constructs that load a resource or run code. */
const CSS_LOADERS =
  /(?:url|image-set|image|cross-fade|element|src|paint|expression)\s*\(|@import|behavior|binding/i;

/**
 * True when a (browser-serialized) CSS value loads nothing: every url() is a
 * data:image URL and no other loading function appears. Backslash escapes
 * are refused outright rather than decoded.
 */
function cssValueIsSafe(v: string): boolean {
  if (v.includes("\\")) return false;
  const re = /url\(\s*/gi;
  let rest = "";
  let last = 0;
  for (let m = re.exec(v); m; m = re.exec(v)) {
    rest += v.slice(last, m.index);
    const i = re.lastIndex;
    const q = v[i];
    let arg: string;
    let close: number;
    if (q === '"' || q === "'") {
      const endQuote = v.indexOf(q, i + 1);
      if (endQuote < 0) return false;
      arg = v.slice(i + 1, endQuote);
      close = v.indexOf(")", endQuote);
    } else {
      close = v.indexOf(")", i);
      arg = close < 0 ? "" : v.slice(i, close);
    }
    if (close < 0) return false;
    arg = arg.trim();
    if (!DATA_IMAGE.test(arg) && !DATA_IMAGE_SVG.test(arg)) return false;
    last = close + 1;
    re.lastIndex = last;
  }
  rest += v.slice(last);
  return !CSS_LOADERS.test(rest);
}

/**
 * An SVG presentation attribute value with url(#id) references prefixed like
 * the ids, or null when it could load something.
 */
function cleanPresentationValue(v: string): string | null {
  if (!v.includes("(")) return v;
  if (v.includes("\\")) return null;
  const FRAG_URL = /url\(\s*(['"]?)#([^'"()\s]*)\1\s*\)/gi;
  const rewritten = v.replace(
    FRAG_URL,
    (_m, q: string, id: string) => `url(${q}#${prefixId(id)}${q})`,
  );
  return CSS_LOADERS.test(rewritten.replace(FRAG_URL, "")) ? null : rewritten;
}

/** Reason collector: deduplicated, counted, capped. */
class Reasons {
  #counts = new Map<string, number>();
  add(reason: string): void {
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
  }
  get size(): number {
    return this.#counts.size;
  }
  list(): string[] {
    const out: string[] = [];
    for (const [reason, n] of this.#counts) {
      if (out.length === MAX_REASONS) {
        out.push(`and ${this.#counts.size - MAX_REASONS} more`);
        break;
      }
      out.push(n > 1 ? `${reason} (${n}×)` : reason);
    }
    return out;
  }
}

function tagOf(node: Node): string {
  return node.nodeType === Node.ELEMENT_NODE
    ? (node as Element).localName.toLowerCase()
    : node.nodeName.toLowerCase();
}

const URL_ATTRS = new Set([
  "href",
  "xlink:href",
  "src",
  "action",
  "formaction",
  "data",
  "poster",
  "background",
  "srcset",
  "ping",
  "codebase",
  "cite",
  "lowsrc",
  "dynsrc",
]);

/** A readable reason for something DOMPurify removed. */
function describeRemoval(
  entry: { element: Node } | { attribute: Attr | null; from: Node },
): string | null {
  if ("element" in entry) {
    const n = entry.element;
    switch (n.nodeType) {
      case Node.ELEMENT_NODE:
        return `<${tagOf(n)}> element`;
      case Node.COMMENT_NODE:
        return null; // harmless, not worth a notice
      case Node.PROCESSING_INSTRUCTION_NODE:
        return "processing instruction";
      default:
        return `${n.nodeName.toLowerCase()} node`;
    }
  }
  const tag = tagOf(entry.from);
  const attr = entry.attribute;
  if (!attr) return `an attribute on <${tag}>`;
  const name = attr.name.toLowerCase();
  if (name.startsWith("on")) return `${name} event handler on <${tag}>`;
  if (URL_ATTRS.has(name)) {
    const scheme = schemeOf(attr.value);
    if (scheme && name !== "srcset") {
      return `${scheme}: URL in ${name} on <${tag}>`;
    }
  }
  return `${name} attribute on <${tag}>`;
}

/** Our pass over DOMPurify's output: URLs, CSS, target, ids. */
function enforcePolicy(
  fragment: DocumentFragment,
  base: URL | null,
  reasons: Reasons,
): void {
  for (const el of Array.from(fragment.querySelectorAll("*"))) {
    const tag = tagOf(el);
    const isSvg = el.namespaceURI === SVG_NS;
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name === "href" || name === "xlink:href" || name === "src") {
        let kind: UrlKind | null = null;
        if (name === "src") kind = tag === "img" && !isSvg ? "img" : null;
        else if (tag === "a") kind = "link";
        else if (tag === "image" && isSvg) kind = "image";
        else if (isSvg && FRAGMENT_REF_TAGS.has(tag)) kind = "fragment";
        if (!kind) {
          el.removeAttributeNode(attr);
          reasons.add(`${name} attribute on <${tag}>`);
          continue;
        }
        const r = checkUrl(attr.value, kind, base);
        if ("why" in r) {
          el.removeAttributeNode(attr);
          reasons.add(`${r.why} in ${name} on <${tag}>`);
        } else if (r.keep !== attr.value) {
          attr.value = r.keep;
        }
      } else if ((name === "width" || name === "height") && !isSvg) {
        // <img width=30000 height=30000> would insert a blank block
        // 30,000 px tall: sizes are capped, and the cap said.
        const n = parseFloat(attr.value);
        if (n > MAX_EMBED_SIDE) {
          reasons.add(
            `${name}="${
              attr.value.slice(0, 12)
            }" on <${tag}> capped at ${MAX_EMBED_SIDE} pixels`,
          );
          attr.value = String(MAX_EMBED_SIDE);
        }
      } else if (name === "style") {
        cleanStyle(el, tag, reasons);
      } else if (name === "target") {
        if (attr.value.trim().toLowerCase() === "_blank") {
          attr.value = "_blank";
          // The opened page must not reach back into the terminal.
          el.setAttribute("rel", "noopener noreferrer");
        } else {
          el.removeAttributeNode(attr);
          reasons.add(`target="${attr.value.slice(0, 40)}" on <${tag}>`);
        }
      } else if (
        isSvg && name !== "class" && name !== "id" && name !== "replace-key" &&
        !name.startsWith("xmlns") && !name.startsWith("data-") &&
        !name.startsWith("aria-")
      ) {
        const v = cleanPresentationValue(attr.value);
        if (v === null) {
          el.removeAttributeNode(attr);
          reasons.add(`${name} on <${tag}> (loads a URL)`);
        } else if (v !== attr.value) attr.value = v;
      }
    }
    if (tag === "img" && !isSvg) {
      // Images must not tell remote servers where they were shown.
      el.setAttribute("referrerpolicy", "no-referrer");
    }
  }
}

/** Largest width or height an embedded element may ask for, in CSS pixels. */
export const MAX_EMBED_SIDE = 10_000;
const SIZE_PROPS = new Set([
  "width",
  "height",
  "min-width",
  "min-height",
  "block-size",
  "inline-size",
  "min-block-size",
  "min-inline-size",
]);

/** A CSS length in pixels when it is absolute (px, cm, in...), else 0. */
function cssLength(value: string): number {
  const m = /^\s*([\d.]+)(px|cm|mm|in|pt|pc|q|em|rem)?\s*$/i.exec(value);
  if (!m) return 0;
  const n = parseFloat(m[1]);
  const unit = (m[2] ?? "px").toLowerCase();
  const px: Record<string, number> = {
    px: 1,
    cm: 96 / 2.54,
    mm: 96 / 25.4,
    q: 96 / 101.6,
    in: 96,
    pt: 4 / 3,
    pc: 16,
    em: 16,
    rem: 16,
  };
  return n * px[unit];
}

/** Drops the CSS declarations of a style attribute that load URLs or escape the terminal. */
function cleanStyle(el: Element, tag: string, reasons: Reasons): void {
  const style = (el as HTMLElement | SVGElement).style as
    | CSSStyleDeclaration
    | undefined;
  if (!style) {
    el.removeAttribute("style");
    reasons.add(`style attribute on <${tag}>`);
    return;
  }
  const raw = el.getAttribute("style") ?? "";
  let reported = false;
  // The browser's CSS parser has already dropped what it does not know
  // (expression(), behavior, -moz-binding...); check what it kept.
  for (let i = style.length - 1; i >= 0; i--) {
    const prop = style.item(i);
    const value = style.getPropertyValue(prop);
    if (!cssValueIsSafe(value)) {
      style.removeProperty(prop);
      reasons.add(`${prop} in style on <${tag}> (loads a URL)`);
      reported = true;
    } else if (SIZE_PROPS.has(prop) && cssLength(value) > MAX_EMBED_SIDE) {
      style.removeProperty(prop);
      reasons.add(
        `${prop}: ${
          value.slice(0, 16)
        } in style on <${tag}> (over ${MAX_EMBED_SIDE} pixels)`,
      );
    } else if (prop === "position" && /fixed|sticky/i.test(value)) {
      // Would pin the content over the terminal's own UI.
      style.removeProperty(prop);
      reasons.add(`position: ${value} in style on <${tag}>`);
    }
  }
  const text = style.cssText;
  if (text === "") {
    el.removeAttribute("style");
  } else if (!cssValueIsSafe(text)) {
    el.removeAttribute("style");
    reasons.add(`style attribute on <${tag}> (loads a URL)`);
    reported = true;
  } else {
    el.setAttribute("style", text);
  }
  if (!reported && !cssValueIsSafe(raw)) {
    // Dropped by the CSS parser itself, but the program meant it: say so.
    reasons.add(`CSS that loads URLs or runs code in style on <${tag}>`);
  }
}

/** Elements that may carry `data-dt-event` (docs/interactive.md). */
const EVENT_TAGS = new Set(["button", "a", "details", "input", "select"]);
/** The input types allowed: they send nothing by themselves. */
const INPUT_TYPES = new Set(["checkbox", "radio", "text"]);
/** What a `data-dt-event` name may be (core/protocol.ts's EVENT_NAME_RE). */
const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * The form controls and `data-dt-event`: an `input` other than a
 * checkbox, radio or text field goes (file pickers, passwords, image and
 * submit buttons); a `button` is `type="button"` (there is no form it
 * could submit, and this keeps it so); `data-dt-event` stays only on the
 * elements that send events, with a valid name.
 */
function checkInteractive(fragment: DocumentFragment, reasons: Reasons): void {
  for (const el of Array.from(fragment.querySelectorAll("input"))) {
    const type = (el.getAttribute("type") ?? "text").trim().toLowerCase();
    if (INPUT_TYPES.has(type)) el.setAttribute("type", type);
    else {
      el.remove();
      reasons.add(`<input type="${type.slice(0, 20)}"> element`);
    }
  }
  for (const el of Array.from(fragment.querySelectorAll("button"))) {
    el.setAttribute("type", "button");
  }
  for (const el of Array.from(fragment.querySelectorAll("[data-dt-event]"))) {
    const tag = tagOf(el);
    const name = el.getAttribute("data-dt-event")!;
    if (el.namespaceURI !== HTML_NS || !EVENT_TAGS.has(tag)) {
      el.removeAttribute("data-dt-event");
      reasons.add(`data-dt-event on <${tag}>`);
    } else if (!EVENT_NAME.test(name)) {
      el.removeAttribute("data-dt-event");
      reasons.add(`data-dt-event="${name.slice(0, 20)}" (not a valid name)`);
    }
  }
}

function isBlock(fragment: DocumentFragment): boolean {
  for (const el of Array.from(fragment.querySelectorAll("*"))) {
    if (BLOCK_TAGS.has(tagOf(el))) return true;
  }
  return false;
}

/**
 * Sanitize `html` (untrusted) with an allow-list. `baseUrl`: from a `<base
 * href>` inside the fragment (resolve relative URLs against it; only
 * http/https bases count), else none.
 *
 * The returned fragment belongs to an inert document (nothing in it has
 * loaded or run); inserting it into the page adopts it.
 */
export function sanitizeHtml(
  html: string,
  options?: SanitizeOptions,
): SanitizeResult {
  const maxLength = options?.maxLength ?? DEFAULT_MAX_LENGTH;
  if (html.length > maxLength) {
    return {
      fragment: null,
      removed: [
        `HTML fragment too large (${html.length} > ${maxLength} characters)`,
      ],
      block: false,
    };
  }
  const purify = getPurifier();
  const call: CallState = {
    base: null,
    quietRemovals: new Set(),
    reasons: [],
    sawBase: false,
  };
  state = call;
  let fragment: DocumentFragment;
  try {
    fragment = purify.sanitize(html, CONFIG);
  } finally {
    state = undefined;
  }
  const reasons = new Reasons();
  // SANITIZE_NAMED_PROPS can log one attribute twice; count it once.
  const seenAttrs = new Set<Attr>();
  purify.removed.forEach((entry, i) => {
    if ("attribute" in entry && entry.attribute) {
      if (seenAttrs.has(entry.attribute)) return;
      seenAttrs.add(entry.attribute);
    }
    // FORCE_BODY's own "<remove>" marker is removed first.
    if (i === 0 && "element" in entry && entry.element.nodeName === "REMOVE") {
      return;
    }
    if ("element" in entry && call.quietRemovals.has(entry.element)) return;
    const why = describeRemoval(entry);
    if (why) reasons.add(why);
  });
  for (const r of call.reasons) reasons.add(r);
  if (!fragment) {
    reasons.add("the fragment could not be parsed");
    return { fragment: null, removed: reasons.list(), block: false };
  }
  enforcePolicy(fragment, call.base, reasons);
  checkInteractive(fragment, reasons);

  const empty = fragment.querySelector("*") === null &&
    (fragment.textContent ?? "").trim() === "";
  if (empty && html.trim() !== "") {
    if (reasons.size === 0) reasons.add("nothing displayable in the fragment");
    return { fragment: null, removed: reasons.list(), block: false };
  }
  return { fragment, removed: reasons.list(), block: isBlock(fragment) };
}

/** A visible, styled notice element for a rejected fragment (class "dt-html-rejected"). */
export function rejectedNotice(reasons: string[]): HTMLElement {
  const el = document.createElement("div");
  el.className = "dt-html-rejected";
  el.setAttribute("role", "note");
  // Inline style so the notice shows even without the default stylesheet.
  Object.assign(el.style, {
    display: "block",
    margin: "2px 0",
    padding: "2px 6px",
    border: "1px dashed #c66",
    borderRadius: "3px",
    color: "#e88",
    backgroundColor: "rgba(200, 60, 60, 0.12)",
    font: "inherit",
    whiteSpace: "pre-wrap",
  });
  const head = document.createElement("strong");
  head.textContent = "HTML output blocked";
  el.append(head);
  if (reasons.length > 0) {
    // textContent: reasons may quote program-controlled text.
    el.append(": " + reasons.join("; "));
  }
  return el;
}
