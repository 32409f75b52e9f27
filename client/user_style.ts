/**
 * The user's own stylesheet (`~/.config/domterm/style.css`), fetched from
 * the server's {@link USER_CSS_PATH} with the server key and added as the
 * last `<style>` of the page, so its rules win over domterm.css.
 *
 * @module
 */
import { USER_CSS_KEY_HEADER, USER_CSS_PATH } from "../core/protocol.ts";

/** Id of the `<style>` element that holds the user's stylesheet. */
export const USER_STYLE_ID = "dt-user-style";

/**
 * Fetch and install the user's stylesheet. Resolves true if one was
 * installed, false if the user has none; a failure is reported through
 * `onError` and leaves the default look.
 */
export async function loadUserStyle(
  doc: Document,
  key: string,
  onError: (message: string) => void = () => {},
): Promise<boolean> {
  let css: string;
  try {
    const res = await fetch(USER_CSS_PATH, {
      headers: { [USER_CSS_KEY_HEADER]: key },
      cache: "no-store",
    });
    if (res.status === 204) return false;
    if (!res.ok) {
      onError(`user stylesheet: ${res.status} ${await res.text()}`);
      return false;
    }
    css = await res.text();
  } catch (e) {
    onError(`user stylesheet: ${(e as Error).message}`);
    return false;
  }
  let style = doc.getElementById(USER_STYLE_ID);
  if (!style) {
    style = doc.createElement("style");
    style.id = USER_STYLE_ID;
  }
  style.textContent = css;
  // Last in <head>, after domterm.css and ui.css (later rules win).
  (doc.head ?? doc.documentElement).appendChild(style);
  return true;
}
