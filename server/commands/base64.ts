/**
 * Base64 without a dependency (JSR's @std/encoding is not reachable here).
 *
 * @module
 */

/** Standard base64 (with padding) of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  // btoa wants a binary string; build it in slices to bound the argument count.
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}
