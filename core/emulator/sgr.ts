/**
 * SGR (`CSI Pm m`): parse parameters into a {@link Pen}, and format a pen
 * back into SGR parameters (for DECRQSS).
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import {
  A_BLINK,
  A_BOLD,
  A_FAINT,
  A_INVERSE,
  A_INVISIBLE,
  A_ITALIC,
  A_OVERLINE,
  A_PROTECTED,
  A_STRIKE,
  A_UNDERLINE_MASK,
  A_UNDERLINE_SHIFT,
  COLOR_DEFAULT,
  COLOR_KIND_MASK,
  COLOR_PALETTE,
  COLOR_RGB,
  paletteColor,
  rgbColor,
} from "../model/cell.ts";

/** The current graphic rendition. */
export interface Pen {
  /** Foreground colour word (see `cell.ts`). */
  fg: number;
  /** Background colour word. */
  bg: number;
  /** Style bits of the ATTR word (low 16 bits, no glyph bits); includes A_PROTECTED (DECSCA). */
  flags: number;
  /** Underline colour word, 0 = same as the text (SGR 58/59). */
  underlineColor: number;
}

/** A pen with default colours and no attributes. */
export function defaultPen(): Pen {
  return { fg: 0, bg: 0, flags: 0, underlineColor: 0 };
}

function setUnderline(pen: Pen, style: number): void {
  pen.flags = (pen.flags & ~A_UNDERLINE_MASK) |
    ((style & 7) << A_UNDERLINE_SHIFT);
}

/** Clamp a colour component; missing (-1) counts as 0. */
function component(v: number | undefined): number {
  return v === undefined || v < 0 ? 0 : v > 255 ? 255 : v;
}

/** Extra top-level parameters consumed by the last {@link extendedColor} call. */
let consumed = 0;

/**
 * Read an extended colour (the parameters after 38, 48 or 58). Returns the
 * colour word (or -1 for an invalid one); sets {@link consumed} to how many
 * extra top-level parameters it used (no allocation on this path).
 */
function extendedColor(params: Params, i: number): number {
  consumed = 0;
  const sub = params.sub(i);
  if (sub !== undefined) {
    // Colon form: 38:5:n, 38:2:r:g:b, 38:2:cs:r:g:b (cs = colour space, ignored).
    if (sub[0] === 5) {
      const n = sub.length > 1 ? sub[1] : -1;
      return n >= 0 && n <= 255 ? paletteColor(n) : -1;
    }
    if (sub[0] === 2) {
      if (sub.length >= 5) {
        return rgbColor(
          component(sub[2]),
          component(sub[3]),
          component(sub[4]),
        );
      }
      if (sub.length === 4) {
        return rgbColor(
          component(sub[1]),
          component(sub[2]),
          component(sub[3]),
        );
      }
    }
    return -1;
  }
  // Semicolon form: 38;5;n and 38;2;r;g;b.
  const kind = params.get(i + 1, -1);
  if (kind === 5) {
    const n = params.get(i + 2, -1);
    consumed = 2;
    return n >= 0 && n <= 255 ? paletteColor(n) : -1;
  }
  if (kind === 2) {
    consumed = 4;
    return rgbColor(
      component(params.get(i + 2, 0)),
      component(params.get(i + 3, 0)),
      component(params.get(i + 4, 0)),
    );
  }
  consumed = params.length - i - 1; // unknown kind: the rest is not SGR we know
  return -1;
}

/** Apply `CSI params m` to `pen`. Unknown parameters are ignored. */
export function applySgr(pen: Pen, params: Params): void {
  const n = params.length;
  if (n === 0) {
    resetPen(pen);
    return;
  }
  for (let i = 0; i < n; i++) {
    const p = params.get(i, 0);
    if (p >= 30 && p <= 37) {
      pen.fg = paletteColor(p - 30);
      continue;
    }
    if (p >= 40 && p <= 47) {
      pen.bg = paletteColor(p - 40);
      continue;
    }
    if (p >= 90 && p <= 97) {
      pen.fg = paletteColor(p - 90 + 8);
      continue;
    }
    if (p >= 100 && p <= 107) {
      pen.bg = paletteColor(p - 100 + 8);
      continue;
    }
    switch (p) {
      case 0:
        resetPen(pen);
        break;
      case 1:
        pen.flags |= A_BOLD;
        break;
      case 2:
        pen.flags |= A_FAINT;
        break;
      case 3:
        pen.flags |= A_ITALIC;
        break;
      case 4: {
        const sub = params.sub(i);
        const style = sub === undefined ? 1 : sub[0];
        if (style >= 0 && style <= 5) setUnderline(pen, style);
        else if (style < 0) setUnderline(pen, 1);
        break;
      }
      case 5:
      case 6:
        pen.flags |= A_BLINK;
        break;
      case 7:
        pen.flags |= A_INVERSE;
        break;
      case 8:
        pen.flags |= A_INVISIBLE;
        break;
      case 9:
        pen.flags |= A_STRIKE;
        break;
      case 21:
        setUnderline(pen, 2);
        break;
      case 22:
        pen.flags &= ~(A_BOLD | A_FAINT);
        break;
      case 23:
        pen.flags &= ~A_ITALIC;
        break;
      case 24:
        setUnderline(pen, 0);
        break;
      case 25:
        pen.flags &= ~A_BLINK;
        break;
      case 27:
        pen.flags &= ~A_INVERSE;
        break;
      case 28:
        pen.flags &= ~A_INVISIBLE;
        break;
      case 29:
        pen.flags &= ~A_STRIKE;
        break;
      case 38:
      case 48:
      case 58: {
        const color = extendedColor(params, i);
        i += consumed;
        if (color < 0) break;
        if (p === 38) pen.fg = color;
        else if (p === 48) pen.bg = color;
        else pen.underlineColor = color;
        break;
      }
      case 39:
        pen.fg = COLOR_DEFAULT;
        break;
      case 49:
        pen.bg = COLOR_DEFAULT;
        break;
      case 53:
        pen.flags |= A_OVERLINE;
        break;
      case 55:
        pen.flags &= ~A_OVERLINE;
        break;
      case 59:
        pen.underlineColor = COLOR_DEFAULT;
        break;
      default:
        break; // unknown: ignored
    }
  }
}

/** SGR 0: default colours, no attributes (DECSCA protection is kept, as in xterm). */
export function resetPen(pen: Pen): void {
  pen.fg = 0;
  pen.bg = 0;
  pen.flags &= A_PROTECTED;
  pen.underlineColor = 0;
}

function colorParams(base: number, color: number): string {
  const kind = color & COLOR_KIND_MASK;
  if (kind === COLOR_PALETTE) {
    const n = color & 0xff;
    if (base !== 58 && n < 8) return String(base - 8 + n);
    if (base !== 58 && n < 16) return String((base === 38 ? 90 : 100) + n - 8);
    return `${base};5;${n}`;
  }
  if (kind === COLOR_RGB) {
    return `${base};2;${(color >> 16) & 0xff};${(color >> 8) & 0xff};${
      color & 0xff
    }`;
  }
  return "";
}

/** The pen as SGR parameters, starting with "0" (xterm's DECRQSS format). */
export function penToSgr(pen: Pen): string {
  const out = ["0"];
  const f = pen.flags;
  if (f & A_BOLD) out.push("1");
  if (f & A_FAINT) out.push("2");
  if (f & A_ITALIC) out.push("3");
  const ul = (f & A_UNDERLINE_MASK) >>> A_UNDERLINE_SHIFT;
  if (ul === 1) out.push("4");
  else if (ul === 2) out.push("21");
  else if (ul > 2) out.push(`4:${ul}`);
  if (f & A_BLINK) out.push("5");
  if (f & A_INVERSE) out.push("7");
  if (f & A_INVISIBLE) out.push("8");
  if (f & A_STRIKE) out.push("9");
  if (f & A_OVERLINE) out.push("53");
  if (pen.fg) out.push(colorParams(38, pen.fg));
  if (pen.bg) out.push(colorParams(48, pen.bg));
  if (pen.underlineColor) out.push(colorParams(58, pen.underlineColor));
  return out.join(";");
}
