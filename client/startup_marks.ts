/**
 * The page's start-up marks (issue 31 §7): `performance.mark("domterm:NAME")`
 * at each step from the navigation's start to the first prompt drawn, the
 * first time only, so a reconnect does not add more. bench/startup_bench.ts
 * and tests/e2e/startup_test.ts read them with
 * `performance.getEntriesByName`.
 *
 * The steps, in the order a new window takes them: `script` (the client's
 * modules evaluated), `launch` (the key known: a launch token traded),
 * `window` (the window built), `fonts` (document.fonts.ready), `channel-open`
 * (the window channel's socket open), `layout` (its first layout), `connect`
 * (the first terminal's connection made), `socket-open` (its socket open; the
 * hello goes at once: `hello`), `ready`, `snapshot-received`,
 * `first-output` (the first output bytes came), `output-drawn` (the first
 * frame drawn after output was handed on).
 *
 * @module
 */

const made = new Set<string>();

/** Mark `name` (as `domterm:name`) if it was not marked yet. */
export function startupMark(name: string): void {
  if (made.has(name)) return;
  made.add(name);
  performance.mark(`domterm:${name}`);
}
