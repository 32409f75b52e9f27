/**
 * The "read-only" badge of a window opened through a read-only share: the
 * server drops what it sends and says so once (core/protocol.ts
 * `read-only`); the badge stays, quiet, in the bottom right corner.
 *
 * @module
 */

/** Show the badge in `doc` (once); `message` is its tooltip. */
export function showReadOnlyBadge(doc: Document, message: string): void {
  let badge = doc.getElementById("dt-read-only");
  if (!badge) {
    badge = doc.createElement("div");
    badge.id = "dt-read-only";
    badge.className = "dt-read-only";
    badge.setAttribute("role", "status");
    badge.textContent = "read-only";
    doc.body.append(badge);
  }
  badge.title = message;
}
