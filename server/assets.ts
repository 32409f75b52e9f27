/**
 * The embedded client's files and how they are served. Text files are
 * embedded gzip-compressed (scripts/build.ts): a big string literal in a
 * module costs the server about 20 times its size in resident memory (V8
 * keeps the module source and its compiled form), while the compressed
 * bytes cost about their size, and go out as they are to every browser.
 *
 * @module
 */

/** A static file the server hands out: plain, or gzip-compressed. */
export type Asset =
  | { type: string; body: string | Uint8Array<ArrayBuffer> }
  | { type: string; gzip: Uint8Array<ArrayBuffer> };

/** Bytes of `stream` collected into one array. */
async function collect(
  stream: ReadableStream<Uint8Array>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The decompressed bodies of gzip assets, made on first need. */
const plain = new WeakMap<Asset, Promise<Uint8Array<ArrayBuffer>>>();

/** True when the request's Accept-Encoding admits gzip (q > 0). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name.trim() !== "gzip" && name.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The response body and extra headers for `asset`: the compressed bytes
 * with `Content-Encoding: gzip` when the client takes gzip, else the
 * plain bytes (decompressed once, then kept).
 */
export async function assetBody(
  asset: Asset,
  acceptEncoding: string | null,
): Promise<
  { body: string | Uint8Array<ArrayBuffer>; headers: [string, string][] }
> {
  if ("body" in asset) return { body: asset.body, headers: [] };
  const vary: [string, string] = ["vary", "accept-encoding"];
  if (acceptsGzip(acceptEncoding)) {
    return { body: asset.gzip, headers: [["content-encoding", "gzip"], vary] };
  }
  let body = plain.get(asset);
  if (!body) {
    body = collect(
      new Blob([asset.gzip]).stream().pipeThrough(
        new DecompressionStream("gzip"),
      ),
    );
    plain.set(asset, body);
  }
  return { body: await body, headers: [vary] };
}

/** Each asset's ETag, made on first need. */
const tags = new WeakMap<Asset, Promise<string>>();

/** A strong ETag for `asset`: a hash of its bytes as embedded. */
export function assetTag(asset: Asset): Promise<string> {
  let tag = tags.get(asset);
  if (!tag) {
    const bytes = "gzip" in asset
      ? asset.gzip
      : typeof asset.body === "string"
      ? new TextEncoder().encode(asset.body)
      : asset.body;
    tag = crypto.subtle.digest("SHA-256", bytes).then((d) =>
      `"${
        Array.from(new Uint8Array(d).subarray(0, 12), (b) =>
          b.toString(16).padStart(2, "0")).join("")
      }"`
    );
    tags.set(asset, tag);
  }
  return tag;
}
