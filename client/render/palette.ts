/**
 * The palette a program changed: OSC 4 colours and the OSC 10/11/12
 * defaults, applied as custom properties on the terminal's root
 * (`--dt-color-N`, `--dt-fg`, `--dt-bg`, `--dt-cursor`) that the
 * stylesheet reads.
 *
 * @module
 */
import type { TerminalView } from "../../core/terminal_view.ts";

/** Custom properties set by OSC 10, 11 and 12. */
const DYNAMIC_PROPS = ["--dt-fg", "--dt-bg", "--dt-cursor"];

/** Keeps `style`'s colour properties in line with a terminal's overrides. */
export class PaletteSync {
  #palette: (string | null)[] = new Array(256).fill(null);
  #dynamic: (string | null)[] = [null, null, null];

  constructor(readonly style: CSSStyleDeclaration) {}

  /**
   * Apply OSC 4 palette changes, and OSC 10/11/12 default colour changes,
   * as custom properties. Returns true when anything changed.
   */
  sync(term: TerminalView): boolean {
    let changed = false;
    const pal = this.#palette;
    const style = this.style;
    for (let i = 0; i < 256; i++) {
      const v = term.paletteOverride(i);
      if (v === pal[i]) continue;
      pal[i] = v;
      changed = true;
      if (v === null) style.removeProperty(`--dt-color-${i}`);
      else style.setProperty(`--dt-color-${i}`, v);
    }
    for (let w = 0 as 0 | 1 | 2; w < 3; w++) {
      const v = term.dynamicColorOverride(w);
      if (v === this.#dynamic[w]) continue;
      this.#dynamic[w] = v;
      changed = true;
      if (v === null) style.removeProperty(DYNAMIC_PROPS[w]);
      else style.setProperty(DYNAMIC_PROPS[w], v);
    }
    return changed;
  }

  /** Remove every property this set. */
  clear(): void {
    for (let i = 0; i < 256; i++) {
      if (this.#palette[i] !== null) {
        this.style.removeProperty(`--dt-color-${i}`);
      }
    }
    for (const p of DYNAMIC_PROPS) this.style.removeProperty(p);
  }
}
