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
import { MAX_IMAGE_PIXELS } from "../core/emulator/images.ts";
// The decoder alone: the package index also loads its encoder (UPNG), which
// does not bundle for the browser.
import { decodeAsync } from "sixel/lib/Decoder.js";

/** Image types shown inline (the core sniffed them from the bytes). */
const SHOWN = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/bmp",
  "image/svg+xml",
]);

/** Sixel images wider or taller than this are not drawn. */
const MAX_SIXEL_SIDE = 10_000;

/** A CSS length for an iTerm2 size spec, or "" for auto. */
function cssSize(spec: string, axis: "w" | "h"): string {
  if (spec === "auto" || spec === "") return "";
  if (spec.endsWith("px")) return spec;
  if (spec.endsWith("%")) {
    // Percent of the terminal's width, or of the window's height.
    return axis === "w" ? spec : `${parseFloat(spec)}vh`;
  }
  return `calc(${Number(spec)} * var(--dt-cell-${axis}, 1em))`;
}

function notice(doc: Document, text: string): HTMLElement {
  const el = doc.createElement("div");
  el.className = "dt-image-error";
  el.textContent = text;
  return el;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Apply the width/height/preserveAspectRatio of `image` to `el`. */
function applySize(el: HTMLElement, image: ImageEmbed): void {
  const w = cssSize(image.width, "w"), h = cssSize(image.height, "h");
  if (w !== "") el.style.width = w;
  if (h !== "") el.style.height = h;
  if (w !== "" && h !== "") {
    el.style.objectFit = image.preserveAspectRatio ? "contain" : "fill";
  }
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
    box.append(
      notice(
        doc,
        `image ${
          image.name || ""
        } dropped: too much image data in this terminal`
          .replace("  ", " "),
      ),
    );
    return box;
  }
  if (!image.inline) {
    const a = doc.createElement("a");
    a.className = "dt-download";
    a.href = `data:application/octet-stream;base64,${image.data}`;
    a.download = image.name || "download";
    a.textContent = `Download ${image.name || "file"} (${
      sizeText(image.bytes)
    })`;
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
  if (!SHOWN.has(image.mime)) {
    box.append(notice(doc, `image of type ${image.mime} not shown`));
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
        notice(
          doc,
          `image of ${img.naturalWidth}x${img.naturalHeight} pixels not shown`,
        ),
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
