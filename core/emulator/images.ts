/**
 * Images in the model: iTerm2's `OSC 1337 ; File=[args] : base64` and sixel
 * (`DCS P1;P2;P3 q data ST`). Both become an {@link ImageEmbed}; the client
 * draws them (sixel is decoded there). The MIME type comes from the
 * content, never from the name.
 *
 * On the normal screen an image is a block line of its own (see
 * `html_embed.ts`), kept in the scrollback. On the alternate screen, a
 * fixed grid, it covers the cells under it as in xterm: one
 * {@link ImagePiece} per row it covers, from the cursor (its top-left
 * corner) on, so that it scrolls, is erased and is overwritten with the
 * text of those cells, and goes with the alternate screen. Its size in
 * cells comes from its size in pixels and the cell size the window
 * reported (`CSI 16 t`). After a sixel image the cursor is on the image's
 * last row, in its first column (xterm and the VT340: a program prints a
 * newline to go below it); with sixel scrolling off (DECSDM, `?80` set) the
 * image goes at the top-left of the screen, is cut at its bottom, and the
 * cursor does not move. After an iTerm2 image the cursor is right of its
 * last row, as iTerm2 leaves it.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import {
  coverCells,
  type ImageEmbed,
  type ImagePiece,
} from "../model/line_extras.ts";
import type { Emulator } from "./context.ts";
import { NOTICE_MIME } from "../image_view.ts";
import { cursorLine, index } from "./cursor.ts";
import { osc1337 as itermShellMark } from "./shell_marks.ts";

/** Largest decoded image accepted (bytes). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Raster images with more pixels than this are refused (decoding them would take gigabytes). */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Longest file name kept. */
const MAX_NAME = 255;

/** The result of {@link parseITermFile}: an image or why it was refused. */
export type ParsedFile = { image: ImageEmbed } | { error: string };

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const SIZE_RE = /^(auto|\d{1,5}(px|%)?)$/;

/** Decode the first bytes of base64 `b64` (at most `n`). */
function headBytes(b64: string, n: number): Uint8Array {
  const take = b64.slice(0, Math.ceil(n / 3) * 4 + 4).replace(/=+$/, "");
  const usable = take.slice(0, take.length - (take.length % 4));
  try {
    const bin = atob(usable);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return new Uint8Array(0);
  }
}

function startsWith(b: Uint8Array, sig: number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  return sig.every((v, i) => b[at + i] === v);
}

/**
 * The image MIME type of the bytes `head` (the start of a file), or null
 * when it is not an image the client can show.
 */
export function sniffImageType(head: Uint8Array): string | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return "image/png";
  }
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (
    startsWith(head, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)
  ) return "image/webp";
  if (startsWith(head, [0x42, 0x4d])) return "image/bmp";
  // SVG: text whose first element is <svg (after a BOM, XML declaration,
  // comments or a doctype).
  let text = "";
  for (let i = 0; i < head.length && i < 1024; i++) {
    text += String.fromCharCode(head[i]);
  }
  text = text.replace(/^\xef\xbb\xbf/, "");
  const rest = text.replace(
    /^(?:\s+|<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/i,
    "",
  );
  if (/^<svg[\s>]/i.test(rest)) return "image/svg+xml";
  return null;
}

/**
 * Pixel size of a PNG, GIF, BMP, WebP or JPEG from its first bytes (JPEG:
 * the first start-of-frame marker within them), or null if not found.
 */
export function rasterSize(
  b: Uint8Array,
  mime: string,
): { width: number; height: number } | null {
  const be16 = (i: number) => (b[i] << 8) | b[i + 1];
  const le16 = (i: number) => b[i] | (b[i + 1] << 8);
  const le24 = (i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
  const be32 = (i: number) =>
    ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
  const ok = (n: number) => b.length >= n;
  switch (mime) {
    case "image/png":
      return ok(24) ? { width: be32(16), height: be32(20) } : null;
    case "image/gif":
      return ok(10) ? { width: le16(6), height: le16(8) } : null;
    case "image/bmp": {
      if (!ok(26)) return null;
      const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
      return {
        width: Math.abs(dv.getInt32(18, true)),
        height: Math.abs(dv.getInt32(22, true)),
      };
    }
    case "image/webp": {
      if (!ok(30)) return null;
      const kind = String.fromCharCode(b[12], b[13], b[14], b[15]);
      if (kind === "VP8 ") {
        return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
      }
      if (kind === "VP8L") {
        return {
          width: 1 + (b[21] | ((b[22] & 0x3f) << 8)),
          height: 1 + ((b[22] >> 6) | (b[23] << 2) | ((b[24] & 0xf) << 10)),
        };
      }
      if (kind === "VP8X") return { width: 1 + le24(24), height: 1 + le24(27) };
      return null;
    }
    case "image/jpeg": {
      let i = 2;
      while (i + 9 < b.length) {
        if (b[i] !== 0xff) return null;
        const m = b[i + 1];
        if (m === 0xff) {
          i++;
          continue;
        }
        // SOF0-3, 5-7, 9-11, 13-15 carry the frame size.
        if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
          return { width: be16(i + 7), height: be16(i + 5) };
        }
        if (m === 0xd8 || (m >= 0xd0 && m <= 0xd7) || m === 0x01) {
          i += 2;
          continue;
        }
        i += 2 + be16(i + 2);
      }
      return null;
    }
    default:
      return null;
  }
}

/** Decoded length of base64 `b64` (valid, without whitespace). */
function decodedLength(b64: string): number {
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.floor(b64.length * 3 / 4) - pad;
}

/** Decode base64 `s` as UTF-8 text, or null. */
function decodeName(s: string): string | null {
  try {
    const bin = atob(s);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Parse the text after `OSC 1337 ;` when it is a `File=` command:
 * `File=name=<b64>;size=N;inline=1;width=W;height=H;preserveAspectRatio=0:<b64 data>`.
 */
export function parseITermFile(args: string): ParsedFile {
  if (!args.startsWith("File=")) return { error: "not a File= command" };
  const colon = args.indexOf(":");
  if (colon < 0) return { error: "File=: no ':' before the data" };
  const image: ImageEmbed = {
    mime: "",
    data: "",
    name: "",
    bytes: 0,
    inline: false,
    width: "auto",
    height: "auto",
    preserveAspectRatio: true,
  };
  for (const kv of args.slice(5, colon).split(";")) {
    const eq = kv.indexOf("=");
    if (eq < 0) continue;
    const k = kv.slice(0, eq), v = kv.slice(eq + 1);
    switch (k) {
      case "name": {
        const n = decodeName(v);
        // Keep the base name only, without control characters.
        if (n !== null) {
          // deno-lint-ignore no-control-regex
          image.name = n.replace(/[\x00-\x1f\x7f]/g, "").split(/[\\/]/).pop()!
            .slice(0, MAX_NAME);
        }
        break;
      }
      case "inline":
        image.inline = v === "1";
        break;
      case "width":
      case "height":
        if (SIZE_RE.test(v)) image[k] = v;
        break;
      case "preserveAspectRatio":
        image.preserveAspectRatio = v !== "0";
        break;
    }
  }
  const data = args.slice(colon + 1).replace(/\s+/g, "");
  if (!BASE64_RE.test(data)) return { error: "File=: data is not base64" };
  const bytes = decodedLength(data);
  if (bytes > MAX_IMAGE_BYTES) {
    return {
      error:
        `File=: ${bytes} bytes is more than the ${MAX_IMAGE_BYTES} allowed`,
    };
  }
  if (bytes === 0) return { error: "File=: no data" };
  const head = headBytes(data, 64 * 1024);
  const mime = sniffImageType(head);
  if (mime === null && image.inline) {
    return { error: "File=: inline data is not a known image type" };
  }
  const size = mime === null ? null : rasterSize(head, mime);
  if (size !== null) {
    if (size.width * size.height > MAX_IMAGE_PIXELS) {
      return {
        error:
          `File=: ${size.width}x${size.height} pixels is more than the ${MAX_IMAGE_PIXELS} allowed`,
      };
    }
    image.pixelWidth = size.width;
    image.pixelHeight = size.height;
  }
  image.mime = mime ?? "application/octet-stream";
  image.data = data;
  image.bytes = bytes;
  return { image };
}

/**
 * An image for a sixel DCS: the parameters (P1;P2;P3) and the payload
 * after `q`, kept as sent for the client to decode.
 */
export function sixelImage(params: string, payload: Uint8Array): ImageEmbed {
  let data = "";
  // Sixel data is 7-bit; any other byte is dropped.
  for (let i = 0; i < payload.length; i += 8192) {
    const chunk = payload.subarray(i, Math.min(payload.length, i + 8192));
    data += String.fromCharCode(...chunk.filter((b) => b < 0x80));
  }
  return {
    mime: "image/x-sixel",
    data: params + "q" + data,
    name: "",
    bytes: payload.length,
    inline: true,
    width: "auto",
    height: "auto",
    preserveAspectRatio: true,
  };
}

/**
 * The size in pixels of a sixel image (`data` as {@link sixelImage} keeps
 * it, "P1;P2;P3q..."): its raster attributes (`"Pan;Pad;Ph;Pv`) when they
 * come first and give a size, as the client's decoder then cuts the image
 * to them; else what its data draws (the widest band, 6 pixels per band up
 * to the last band with sixels in it). With `useRaster: false`, what the
 * data draws even when raster attributes come first: what decoding it
 * would cost.
 */
export function sixelSize(
  data: string,
  options: { useRaster?: boolean } = {},
): { width: number; height: number } {
  let i = data.indexOf("q") + 1;
  const n = data.length;
  const number = () => {
    let v = 0;
    while (i < n && data.charCodeAt(i) >= 0x30 && data.charCodeAt(i) <= 0x39) {
      v = Math.min(v * 10 + data.charCodeAt(i++) - 0x30, 1e6);
    }
    return v;
  };
  if (data[i] === '"' && options.useRaster !== false) {
    i++;
    const v: number[] = [];
    for (let k = 0; k < 4; k++) {
      v.push(number());
      if (data[i] !== ";") break;
      i++;
    }
    if (v[2] > 0 && v[3] > 0) return { width: v[2], height: v[3] };
  }
  let x = 0, width = 0, band = 0, last = -1;
  while (i < n) {
    const c = data.charCodeAt(i);
    if (c >= 0x3f && c <= 0x7e) {
      x++;
      last = band;
      i++;
    } else if (c === 0x21) { // ! repeat
      i++;
      const r = number();
      if (i < n && data.charCodeAt(i) >= 0x3f && data.charCodeAt(i) <= 0x7e) {
        x += Math.max(1, r);
        last = band;
        i++;
      }
    } else if (c === 0x24) { // $ graphics carriage return
      x = 0;
      i++;
    } else if (c === 0x2d) { // - graphics new line
      x = 0;
      band++;
      i++;
    } else { // # colour, " raster attributes (later on), anything else
      i++;
      while (i < n && /[0-9;]/.test(data[i])) i++;
    }
    if (x > width) width = x;
  }
  return { width, height: (last + 1) * 6 };
}

/** Rows an image may take on the grid at most (a guard for the loop). */
const MAX_PIECE_ROWS = 1000;

/**
 * Put `image` on the alternate screen over `boxCols` x `boxRows` cells
 * from the cursor (see the module comment); the image itself is `width` x
 * `height` cells. `scrolling` false: at the top-left, cut at the bottom,
 * the cursor stays. `after`: where the cursor goes, in the first column of
 * the last row ("left") or right of it ("right").
 */
function placeOnGrid(
  t: Emulator,
  image: ImageEmbed,
  width: number,
  height: number,
  boxCols: number,
  boxRows: number,
  scrolling: boolean,
  after: "left" | "right",
): void {
  const s = t.s;
  if (!(boxCols >= 1 && boxRows >= 1)) return;
  t.embeds.keepImage(image);
  const x0 = scrolling ? s.x : 0;
  const cols = Math.min(boxCols, s.cols - x0);
  const rows = Math.min(boxRows, scrolling ? MAX_PIECE_ROWS : s.rows);
  const put = (y: number, row: number) => {
    const line = s.buf.screenLine(y);
    coverCells(line, x0, x0 + cols, false); // a new image over an old one
    const piece: ImagePiece = {
      image,
      x: x0,
      cols,
      col: 0,
      row,
      width,
      height,
    };
    ((line.extras ??= {}).images ??= []).push(piece);
    line.dirty = true;
  };
  if (!scrolling) {
    for (let r = 0; r < rows; r++) put(r, r);
    return;
  }
  s.wrapPending = false;
  for (let r = 0; r < rows; r++) {
    if (r > 0) index(s);
    put(s.y, r);
  }
  cursorLine(s).dirty = true;
  if (after === "left") {
    s.x = x0;
  } else if (x0 + cols >= s.cols) {
    s.x = s.cols - 1;
    s.wrapPending = s.modes.autowrap;
  } else {
    s.x = x0 + cols;
  }
}

/** A sixel image on the alternate screen (see the module comment). */
function sixelOnGrid(t: Emulator, image: ImageEmbed): void {
  const s = t.s;
  const px = sixelSize(image.data);
  if (px.width === 0 || px.height === 0) return;
  const width = px.width / s.cellWidth, height = px.height / s.cellHeight;
  placeOnGrid(
    t,
    image,
    width,
    height,
    Math.ceil(width - 1e-9),
    Math.ceil(height - 1e-9),
    !s.modes.sixelDisplay,
    "left",
  );
}

/** Cells of an iTerm2 size spec ("auto": null), of `total` cells for "N%". */
function specCells(spec: string, cell: number, total: number): number | null {
  if (spec === "auto" || spec === "") return null;
  if (spec.endsWith("px")) return parseInt(spec) / cell;
  if (spec.endsWith("%")) return (parseInt(spec) / 100) * total;
  return Number(spec);
}

/**
 * An iTerm2 image on the alternate screen: the cells its width and height
 * give (auto: its pixel size; with preserveAspectRatio it fits inside them
 * keeping its shape). Without a known pixel size an auto side takes the
 * rest of the row, or half the screen's height. Download links (inline=0)
 * and types the client cannot show have no place on the grid: dropped.
 */
function itermOnGrid(t: Emulator, image: ImageEmbed): void {
  const s = t.s;
  if (!image.inline || image.mime === "application/octet-stream") return;
  const cw = s.cellWidth, ch = s.cellHeight;
  const pw = image.pixelWidth ?? 0, ph = image.pixelHeight ?? 0;
  const known = pw > 0 && ph > 0;
  let w = specCells(image.width, cw, s.cols);
  let h = specCells(image.height, ch, s.rows);
  if (w === null && h === null) {
    w = known ? pw / cw : s.cols - s.x;
    h = known ? ph / ch : Math.max(1, s.rows >> 1);
  } else if (w === null) {
    w = known ? h! * (pw / ph) * (ch / cw) : s.cols - s.x;
  } else if (h === null) {
    h = known ? w * (ph / pw) * (cw / ch) : Math.max(1, s.rows >> 1);
  }
  const boxCols = Math.ceil(w - 1e-9), boxRows = Math.ceil(h! - 1e-9);
  let width = w, height = h!;
  if (known && image.preserveAspectRatio) {
    // Fit inside the box, keeping the image's shape.
    const scale = Math.min((w * cw) / pw, (h! * ch) / ph);
    width = (pw * scale) / cw;
    height = (ph * scale) / ch;
  }
  placeOnGrid(t, image, width, height, boxCols, boxRows, true, "right");
}

/** `DCS P1 ; P2 ; P3 q ... ST`: a sixel image, a block line of its own (on the alternate screen over the cells at the cursor). */
export function sixel(t: Emulator, p: Params, payload: Uint8Array): void {
  const image = sixelImage(p.toString(), payload);
  if (t.s.buf.isAlt) sixelOnGrid(t, image);
  else t.embeds.insertImage(image);
}

/** A notice block in place of what was not shown. */
export function noticeEmbed(text: string): ImageEmbed {
  return {
    mime: NOTICE_MIME,
    data: "",
    name: text,
    bytes: 0,
    inline: true,
    width: "auto",
    height: "auto",
    preserveAspectRatio: true,
  };
}

/** Put a notice on a line of its own (not on a full-screen program's grid). */
function insertNotice(t: Emulator, text: string): void {
  if (t.s.buf.isAlt) return;
  t.embeds.insertBlock({ html: "", key: null, image: noticeEmbed(text) });
}

/**
 * The parser dropped a sequence that grew past its cap: an image or HTML
 * leaves a notice saying so where it would have been (others, such as an
 * oversized OSC 52 clipboard write, are dropped as before).
 */
export function oversizedSequence(
  t: Emulator,
  kind: "osc" | "dcs" | "string",
  id: number,
  cap: number,
): void {
  const what = kind === "osc" && id === 1337
    ? "image (OSC 1337)"
    : kind === "osc" && (id === 72 || id === 721)
    ? `HTML (OSC ${id})`
    : kind === "dcs" && id === 0x71
    ? "sixel image"
    : null;
  if (what === null) return;
  const size = cap >= 1 << 20 ? `${cap / (1 << 20)} MiB` : `${cap} bytes`;
  insertNotice(
    t,
    `${what} not shown: larger than the ${size} a sequence may carry`,
  );
}

/** `OSC 1337 ; ...`: iTerm2's shell marks (SetMark, CurrentDir=), else `File=` (an image or a download link; on the alternate screen over the cells at the cursor). */
export function osc1337(t: Emulator, args: string): void {
  if (itermShellMark(t.marks, args)) return;
  const f = parseITermFile(args);
  if (!("image" in f)) {
    // A File= that cannot be shown says why (too large, not base64...).
    if (args.startsWith("File=")) {
      insertNotice(t, `image not shown: ${f.error}`);
    }
    return;
  }
  if (t.s.buf.isAlt) itermOnGrid(t, f.image);
  else t.embeds.insertImage(f.image);
}
