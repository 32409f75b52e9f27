/**
 * `domterm imgcat [--width W] [--height H] [--alt T] file|url...`: show
 * images inline with the iTerm2 protocol (`OSC 1337 ; File=...`), or, with
 * `--alt`, as an `<img>` with a data: URL through `OSC 72` (the iTerm2
 * protocol has no place for alternative text).
 *
 * @module
 */
import { encodeBase64 } from "./base64.ts";
import { readFileCapped } from "./hcat.ts";
import { flag, type ParsedArgs, text } from "../cli/parse.ts";
import {
  CommandError,
  MAX_INPUT_BYTES,
  osc72,
  readCapped,
  requireDomterm,
  writeAll,
} from "./tty.ts";

/** Give up on a URL after this long. */
export const FETCH_TIMEOUT_MS = 20_000;

/**
 * The MIME type of an image from its first bytes (PNG, JPEG, GIF, WebP) or
 * its text (SVG), or null if it is not one of those. Test hook: exported for
 * tests/server/commands_test.ts.
 */
export function sniffImage(b: Uint8Array): string | null {
  const starts = (sig: number[], at = 0) =>
    b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return "image/png";
  }
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39)) {
    return "image/gif";
  }
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) {
    return "image/webp";
  }
  // SVG is text: it must start like XML/SVG and have an <svg element early.
  const head = new TextDecoder().decode(b.subarray(0, 4096))
    .replace(/^\uFEFF/, "").trimStart();
  if (
    /^<svg[\s>]/.test(head) ||
    (/^<(\?xml|!DOCTYPE svg|!--)/i.test(head) && /<svg[\s>]/.test(head))
  ) {
    return "image/svg+xml";
  }
  return null;
}

/** The bytes and file name of a file or an http(s) URL. */
async function load(
  source: string,
): Promise<{ name: string; bytes: Uint8Array }> {
  if (!/^https?:\/\//i.test(source)) {
    return {
      name: source.split("/").pop() || source,
      bytes: await readFileCapped(source),
    };
  }
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new CommandError(`${source}: not a valid URL`);
  }
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (e) {
    const err = e as Error;
    const why = err.name === "TimeoutError"
      ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s`
      : err.message;
    throw new CommandError(`${source}: ${why}`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new CommandError(`${source}: HTTP ${res.status} ${res.statusText}`);
  }
  const length = Number(res.headers.get("content-length") ?? "0");
  if (length > MAX_INPUT_BYTES) {
    await res.body.cancel();
    throw new CommandError(`${source} is larger than 8 MiB`);
  }
  const name = decodeURIComponent(url.pathname.split("/").pop() || "") ||
    url.hostname;
  try {
    return { name, bytes: await readCapped(res.body, MAX_INPUT_BYTES, source) };
  } catch (e) {
    if (e instanceof CommandError) throw e;
    throw new CommandError(`${source}: ${(e as Error).message}`);
  }
}

/** Escape text for an HTML attribute value. */
function attr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
    .replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A --width/--height value as CSS: N cells become ch (width) or lh (height). */
function cssSize(v: string, cellUnit: string): string | null {
  if (v === "auto") return null;
  if (v.endsWith("px") || v.endsWith("%")) return v;
  return `${v}${cellUnit}`;
}

/** Options of one imgcat run. */
export interface ImageOptions {
  width?: string;
  height?: string;
  alt?: string;
}

/** The escape sequence that shows `bytes` (already known to be `mime`). */
export function imageSequence(
  name: string,
  bytes: Uint8Array,
  mime: string,
  o: ImageOptions,
): string {
  const data = encodeBase64(bytes);
  if (o.alt !== undefined) {
    const style = [
      ["width", o.width && cssSize(o.width, "ch")],
      ["height", o.height && cssSize(o.height, "lh")],
    ].filter(([, v]) => v).map(([k, v]) => `${k}:${v}`).join(";");
    return osc72(
      `<img src="data:${mime};base64,${data}" alt="${attr(o.alt)}"` +
        (style ? ` style="${style}"` : "") + ">",
      "--alt",
    );
  }
  let args = `name=${encodeBase64(new TextEncoder().encode(name))}` +
    `;size=${bytes.length};inline=1`;
  if (o.width !== undefined) args += `;width=${o.width}`;
  if (o.height !== undefined) args += `;height=${o.height}`;
  if (o.width !== undefined || o.height !== undefined) {
    args += ";preserveAspectRatio=1";
  }
  return `\x1b]1337;File=${args}:${data}\x07`;
}

/** The `imgcat` subcommand. */
export async function imgcat(a: ParsedArgs): Promise<number> {
  // The table checks --width and --height.
  const o: ImageOptions = {
    width: text(a, "width"),
    height: text(a, "height"),
    alt: text(a, "alt"),
  };
  await requireDomterm(flag(a, "force"));
  let status = 0;
  for (const source of a.operands) {
    try {
      const { name, bytes } = await load(source);
      const mime = sniffImage(bytes);
      if (!mime) {
        throw new CommandError(
          `${source}: not an image (PNG, JPEG, GIF, WebP or SVG)`,
        );
      }
      await writeAll(imageSequence(name, bytes, mime, o));
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      console.error(`domterm imgcat: ${e.message}`);
      status = 1;
    }
  }
  return status;
}
