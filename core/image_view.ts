/**
 * How an {@link ImageEmbed} is shown, as strings: which types are drawn,
 * the CSS size of its width/height specs, and the texts of its notices.
 * Shared by the client's image drawing (`client/images.ts`) and the
 * saved-HTML serializer (`serialize/html.ts`). Pure, no DOM.
 *
 * @module
 */
import type { ImageEmbed } from "./model/line_extras.ts";

/** Image types shown inline (the core sniffed them from the bytes). */
/**
 * The MIME type of a notice that stands where an image or HTML could not be
 * shown (its text in `name`; see `noticeEmbed` in core/emulator/images.ts):
 * the window and saved HTML draw it as a notice, so a dropped image never
 * leaves a silent blank.
 */
export const NOTICE_MIME = "text/x-domterm-notice";

export const SHOWN_IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/bmp",
  "image/svg+xml",
]);

/** A CSS length for an iTerm2 size spec, or "" for auto. */
export function imageCssSize(spec: string, axis: "w" | "h"): string {
  if (spec === "auto" || spec === "") return "";
  if (spec.endsWith("px")) return spec;
  if (spec.endsWith("%")) {
    // Percent of the terminal's width, or of the window's height.
    return axis === "w" ? spec : `${parseFloat(spec)}vh`;
  }
  return `calc(${Number(spec)} * var(--dt-cell-${axis}, 1em))`;
}

/**
 * The CSS width, height and object-fit of `image` ("" where its spec says
 * nothing): its width/height/preserveAspectRatio.
 */
export function imageSize(
  image: ImageEmbed,
): { width: string; height: string; objectFit: string } {
  const width = imageCssSize(image.width, "w");
  const height = imageCssSize(image.height, "h");
  const objectFit = width !== "" && height !== ""
    ? (image.preserveAspectRatio ? "contain" : "fill")
    : "";
  return { width, height, objectFit };
}

/** A byte count for people: "12 B", "3.4 KiB", "1.2 MiB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The notice shown instead of an image whose data the memory cap dropped. */
export function evictedImageText(image: ImageEmbed): string {
  return `image ${
    image.name || ""
  } dropped: too much image data in this terminal`
    .replace("  ", " ");
}

/** The text of the download link of an `inline=0` file. */
export function downloadText(image: ImageEmbed): string {
  return `Download ${image.name || "file"} (${sizeText(image.bytes)})`;
}
