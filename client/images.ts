/**
 * Draws an {@link ImageEmbed} (iTerm2 `OSC 1337 ; File=`, sixel): an `<img>`
 * for a known image type, a canvas for sixel (decoded with npm `sixel`), a
 * download link for `inline=0`. The element is built from the model's
 * fields, never from program HTML, and only image MIME types from the
 * content sniffer reach a `data:` URL.
 *
 * @module
 */
import type { ImageEmbed } from "../core/model/line_extras.ts";
import { MAX_IMAGE_PIXELS, sixelSize } from "../core/emulator/images.ts";
import {
  downloadText,
  evictedImageText,
  imageSize,
  NOTICE_MIME,
  SHOWN_IMAGE_TYPES,
} from "../core/image_view.ts";
// The decoder alone: the package index also loads its encoder (UPNG), which
// does not bundle for the browser.
import { decodeAsync } from "sixel/lib/Decoder.js";

/** Sixel images wider or taller than this are not drawn. */
const MAX_SIXEL_SIDE = 10_000;

function notice(doc: Document, text: string): HTMLElement {
  const el = doc.createElement("div");
  el.className = "dt-image-error";
  el.textContent = text;
  return el;
}

/** Apply the width/height/preserveAspectRatio of `image` to `el`. */
function applySize(el: HTMLElement, image: ImageEmbed): void {
  const { width, height, objectFit } = imageSize(image);
  if (width !== "") el.style.width = width;
  if (height !== "") el.style.height = height;
  if (objectFit !== "") el.style.objectFit = objectFit;
}

/** Decode a sixel payload ("P1;P2;P3q<data>") into a canvas. */
async function drawSixel(
  image: ImageEmbed,
  canvas: HTMLCanvasElement,
): Promise<string | null> {
  const q = image.data.indexOf("q");
  const params = image.data.slice(0, q).split(";");
  // P2 = 1: pixels not drawn stay transparent; otherwise the background.
  const transparent = params[1] === "1";
  // Refuse by what the data draws before decoding it: a few bytes of
  // repeats ("!30000~-" over and over) describe a billion pixels, which the
  // decoder would paint for a minute with the page frozen.
  const drawn = sixelSize(image.data, { useRaster: false });
  if (
    drawn.width > MAX_SIXEL_SIDE || drawn.height > MAX_SIXEL_SIDE ||
    drawn.width * drawn.height > MAX_IMAGE_PIXELS
  ) {
    return `sixel image of ${drawn.width}x${drawn.height} pixels not shown (larger than ${MAX_SIXEL_SIDE} pixels a side or ${
      MAX_IMAGE_PIXELS / 1e6
    } megapixels)`;
  }
  const result = await decodeAsync(image.data.slice(q + 1), {
    memoryLimit: 4 * MAX_IMAGE_PIXELS,
    fillColor: transparent ? 0 : 0xff000000,
  });
  if (
    result.width === 0 || result.height === 0 ||
    result.width > MAX_SIXEL_SIDE || result.height > MAX_SIXEL_SIDE
  ) return `sixel image of ${result.width}x${result.height} pixels not shown`;
  canvas.width = result.width;
  canvas.height = result.height;
  const ctx = canvas.getContext("2d");
  if (!ctx) return "no 2D canvas";
  const data = new ImageData(
    new Uint8ClampedArray(result.data8),
    result.width,
    result.height,
  );
  ctx.putImageData(data, 0, 0);
  return null;
}

/**
 * A sixel image rasterized to a PNG `data:` URL (decoded again, as the
 * window drew it), or null when it cannot be drawn. For saving the
 * session as HTML (client/save_html.ts).
 */
export async function sixelDataUrl(image: ImageEmbed): Promise<string | null> {
  const canvas = document.createElement("canvas");
  try {
    if (await drawSixel(image, canvas) !== null) return null;
    return canvas.toDataURL("image/png");
  } catch {
    return null;
  }
}

/** Image URLs made by {@link imageUrl}, newest last. */
const urls = new Map<ImageEmbed, Promise<string | null>>();
/** {@link imageUrl} keeps the URLs of this many images. */
const MAX_URLS = 64;

/** The bytes of base64 `b64`. */
function bytesOf(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function makeUrl(image: ImageEmbed): Promise<string | null> {
  if (image.evicted || !image.inline) return null;
  let blob: Blob | null;
  if (image.mime === "image/x-sixel") {
    const canvas = document.createElement("canvas");
    if (await drawSixel(image, canvas) !== null) return null;
    blob = await new Promise<Blob | null>((r) => canvas.toBlob(r));
  } else if (SHOWN_IMAGE_TYPES.has(image.mime)) {
    blob = new Blob([bytesOf(image.data) as BlobPart], { type: image.mime });
  } else return null;
  return blob === null ? null : URL.createObjectURL(blob);
}

/**
 * A `blob:` URL that shows `image` (sixel decoded to a PNG), or null when
 * it cannot be shown: for the pieces of an image drawn over the cells of
 * the alternate screen (client/embeds.ts). The URLs of the last
 * {@link MAX_URLS} images are kept (one decode per image); older ones are
 * revoked.
 */
export function imageUrl(image: ImageEmbed): Promise<string | null> {
  let p = urls.get(image);
  if (p !== undefined) {
    urls.delete(image);
    urls.set(image, p);
    return p;
  }
  p = makeUrl(image).catch(() => null);
  urls.set(image, p);
  if (urls.size > MAX_URLS) {
    const [old, url] = urls.entries().next().value!;
    urls.delete(old);
    void url.then((u) => u && URL.revokeObjectURL(u));
  }
  return p;
}

/**
 * The element that shows `image`. `onSize` is called when its size becomes
 * known (the image loaded), so the view can keep following the output.
 */
export function renderImage(
  doc: Document,
  image: ImageEmbed,
  onSize: () => void,
): HTMLElement {
  const box = doc.createElement("div");
  box.className = "dt-image";
  if (image.evicted) {
    box.append(notice(doc, evictedImageText(image)));
    return box;
  }
  if (image.mime === NOTICE_MIME) {
    box.append(notice(doc, image.name));
    return box;
  }
  if (!image.inline) {
    const a = doc.createElement("a");
    a.className = "dt-download";
    a.href = `data:application/octet-stream;base64,${image.data}`;
    a.download = image.name || "download";
    a.textContent = downloadText(image);
    box.append(a);
    return box;
  }
  if (image.mime === "image/x-sixel") {
    const canvas = doc.createElement("canvas");
    canvas.className = "dt-sixel";
    applySize(canvas, image);
    box.append(canvas);
    drawSixel(image, canvas).then(
      (err) => {
        if (err) canvas.replaceWith(notice(doc, err));
        onSize();
      },
      (e) => {
        canvas.replaceWith(
          notice(doc, `sixel image not shown: ${(e as Error).message}`),
        );
        onSize();
      },
    );
    return box;
  }
  if (!SHOWN_IMAGE_TYPES.has(image.mime)) {
    box.append(notice(doc, `image of type ${image.mime} not shown`));
    return box;
  }
  // Refuse by the size its header declares, before the browser decodes it
  // (a small file can declare 30000x30000: decoding that takes seconds and
  // gigabytes, and some decoders then fail without an error event).
  const declared = (image.pixelWidth ?? 0) * (image.pixelHeight ?? 0);
  if (declared > MAX_IMAGE_PIXELS) {
    box.append(
      notice(doc, tooLargeText(image.pixelWidth!, image.pixelHeight!)),
    );
    return box;
  }
  const img = doc.createElement("img");
  img.className = "dt-img";
  img.alt = image.name;
  if (image.name) img.title = image.name;
  // The header's size reserves the room before the image has loaded.
  if (image.pixelWidth && image.pixelHeight) {
    img.width = image.pixelWidth;
    img.height = image.pixelHeight;
  }
  applySize(img, image);
  img.addEventListener("load", () => {
    if (img.naturalWidth * img.naturalHeight > MAX_IMAGE_PIXELS) {
      img.replaceWith(
        notice(doc, tooLargeText(img.naturalWidth, img.naturalHeight)),
      );
    }
    onSize();
  });
  img.addEventListener("error", () => {
    img.replaceWith(notice(doc, `broken ${image.mime} image`));
    onSize();
  });
  img.src = `data:${image.mime};base64,${image.data}`;
  box.append(img);
  return box;
}

/** The notice of a raster image over {@link MAX_IMAGE_PIXELS}. */
function tooLargeText(width: number, height: number): string {
  return `image of ${width}x${height} pixels not shown (larger than ${
    MAX_IMAGE_PIXELS / 1e6
  } megapixels)`;
}
