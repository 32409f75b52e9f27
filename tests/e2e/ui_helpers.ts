/**
 * What the page-feature e2e tests share (ui_test.ts, and ui_timing_test.ts,
 * which the suite runs alone): bash in a real domterm in the file's shared
 * Chromium, a command typed into it.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Running, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

/** The shell of the page tests: bash without its files. */
export const BASH = ["bash", "--norc", "--noprofile", "-i"];
/** Its environment: a plain prompt, no inputrc. */
export const ENV = {
  PS1: "$ ",
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
};

/** Type a command line and press Enter. */
export async function run(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press("Enter");
}

/** The page's inspector, as the tests see it. */
export type Dt = Inspected;

/** Run `fn` on domterm running BASH, once its prompt shows; close it after. */
export async function withDomterm(
  fn: (d: Running) => Promise<void>,
  options: Parameters<typeof startDomterm>[1] = {},
): Promise<void> {
  const d = await startDomterm(BASH, { env: ENV, ...options });
  try {
    await waitForRow(d.page, "$");
    await fn(d);
  } finally {
    await d.close();
  }
}
