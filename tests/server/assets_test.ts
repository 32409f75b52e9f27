import { assertEquals } from "../assert.ts";
import { acceptsGzip, type Asset, assetBody } from "../../server/assets.ts";

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("assets: Accept-Encoding parsing", () => {
  const cases: [string | null, boolean][] = [
    [null, false],
    ["", false],
    ["gzip", true],
    ["gzip, deflate, br, zstd", true],
    ["br;q=1.0, GZIP;q=0.5", true],
    ["gzip;q=0", false],
    ["identity", false],
    ["*", true],
    ["deflate, br", false],
  ];
  for (const [header, want] of cases) {
    assertEquals(acceptsGzip(header), want, String(header));
  }
});

Deno.test("assets: gzip assets go out compressed, or decompressed for clients without gzip", async () => {
  const asset: Asset = {
    type: "text/plain",
    gzip: await gzip("héllo ".repeat(100)),
  };
  const zipped = await assetBody(asset, "gzip, br");
  assertEquals(zipped.body, asset.gzip);
  assertEquals(new Map(zipped.headers).get("content-encoding"), "gzip");
  const plain = await assetBody(asset, null);
  assertEquals(new Map(plain.headers).get("content-encoding"), undefined);
  assertEquals(
    new TextDecoder().decode(plain.body as Uint8Array),
    "héllo ".repeat(100),
  );
  const raw: Asset = { type: "text/plain", body: "as is" };
  assertEquals((await assetBody(raw, "gzip")).body, "as is");
});
