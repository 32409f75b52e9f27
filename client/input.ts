/**
 * Browser input: keyboard (including dead keys and IME composition), paste,
 * copy/paste shortcuts and focus reports, turned into bytes for the PTY
 * through `core/keys.ts`.
 *
 * A hidden (transparent, not `display: none`) `<textarea>` inside `root`
 * takes focus and receives the keys:
 *
 * - keydown: keys that an xterm encodes (arrows, Ctrl+letter, Alt+x, ...)
 *   are sent at once and their default action is prevented. Everything else
 *   is left to the browser: text then arrives as an `input` event, which
 *   copes with keyboard layouts, dead keys and AltGr without a table here.
 * - composition (IME, and dead keys on some platforms): nothing is sent
 *   until `compositionend`, which sends the composed text once. Meanwhile
 *   the textarea sits at the cursor so the candidate window opens there,
 *   and an overlay shows the text being composed.
 * - paste: `encodePaste` (bracketed when ?2004 is on).
 * - keyup: sent only under kitty keyboard flag 2 (report event types);
 *   with kitty flag 8 even text keys and lone modifiers are sent from
 *   keydown (the program asked for key events instead of text).
 *
 * Clicking the terminal focuses `root` itself (a tabindex of -1 is added),
 * which keeps a native selection the user is making intact; the textarea
 * takes focus back on mouseup if nothing was selected, or on the next key.
 * Focus anywhere inside `root` counts as "the terminal has focus".
 *
 * @module
 */
import {
  encodeFocus,
  encodeKey,
  encodePaste,
  type KeyOptions,
  type KeyPress,
} from "../core/keys.ts";
import {
  KITTY_REPORT_ALL_KEYS,
  KITTY_REPORT_EVENTS,
} from "../core/kitty_keys.ts";
import type { InputModes } from "../core/terminal_view.ts";
import { selectedRowsText, terminalSelection } from "./selection.ts";

/** What the input handler needs from the page. */
export interface InputOptions {
  /** Bytes for the PTY (a string of code points; the connection UTF-8-encodes it). */
  send(data: string): void;
  /** Current modes from the emulator. */
  modes(): InputModes;
  /** Cursor cell in viewport (client) coordinates, where the IME textarea goes. */
  cursorRect?(): { left: number; top: number; width: number; height: number };
  /**
   * Takes a paste instead of `send`: the text as pasted and the bytes a
   * program would get for it (bracketed or not, as it asked).
   */
  paste?(text: string, data: string): void;
  /** Called on every key or paste sent (e.g. to scroll to the bottom). */
  onUserInput?(): void;
  /** Called when text was copied from the terminal. */
  onCopy?(): void;
  /** Keyboard preferences (Alt sends ESC, Option as Meta); read on every key. */
  keyOptions?(): KeyOptions;
  /** Override the macOS detection (Cmd+C/V shortcuts, Option handling). */
  isMac?: boolean;
}

/** Class of the hidden textarea and of the composition overlay, for stylesheets. */
const TEXTAREA_CLASS = "dt-input";
const COMPOSITION_CLASS = "dt-composition";

const MODIFIER_KEYS = new Set([
  "Alt",
  "AltGraph",
  "CapsLock",
  "Control",
  "Fn",
  "FnLock",
  "Hyper",
  "Meta",
  "NumLock",
  "OS",
  "ScrollLock",
  "Shift",
  "Super",
  "Symbol",
  "SymbolLock",
]);

function detectMac(): boolean {
  const nav = globalThis.navigator as Navigator & {
    userAgentData?: { platform?: string };
  };
  const platform = nav?.userAgentData?.platform ?? nav?.platform ?? "";
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** Copy what `encodeKey` needs out of a DOM event. */
function keyPressOf(e: KeyboardEvent): KeyPress {
  return {
    key: e.key,
    code: e.code,
    ctrlKey: e.ctrlKey,
    altKey: e.altKey,
    shiftKey: e.shiftKey,
    metaKey: e.metaKey,
    altGraph: e.getModifierState?.("AltGraph") ?? false,
    type: e.type === "keyup" ? "keyup" : "keydown",
    repeat: e.repeat,
    capsLock: e.getModifierState?.("CapsLock") ?? false,
    numLock: e.getModifierState?.("NumLock") ?? false,
  };
}

/** The Latin letter of a key event, by `key` or else by physical key. */
function letterOf(e: KeyboardEvent): string {
  if (/^[a-z]$/i.test(e.key)) return e.key.toLowerCase();
  const m = /^Key([A-Z])$/.exec(e.code);
  return m ? m[1].toLowerCase() : "";
}

/**
 * A key that types one character with no modifier but Shift (Dead keys,
 * AltGr, Alt and IME keys are left to the textarea's input events).
 */
function isPlainText(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.altKey || e.metaKey) return false;
  if (e.getModifierState?.("AltGraph")) return false;
  const k = e.key;
  return k.length === 1 ||
    (k.length === 2 && k.codePointAt(0)! > 0xffff);
}

/** An editable element that is not ours (a find box inside the terminal, say). */
function isForeignEditable(
  target: EventTarget | null,
  ours: HTMLElement,
): boolean {
  if (!(target instanceof HTMLElement) || target === ours) return false;
  return target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement || target.isContentEditable;
}

/** Keyboard, IME, paste and focus handling for one terminal element. */
export class InputHandler {
  /** Called when the terminal gains or loses focus. */
  onFocusChange?: (focused: boolean) => void;
  /**
   * Tab focus mode (client/a11y/tab_focus.ts): Tab and Shift+Tab move the
   * focus out of the terminal instead of reaching the program.
   */
  tabMovesFocus = false;

  readonly #root: HTMLElement;
  readonly #options: InputOptions;
  readonly #isMac: boolean;
  readonly #textarea: HTMLTextAreaElement;
  readonly #compositionView: HTMLElement;
  #focused = false;
  #composing = false;
  /** Text just sent by compositionend, to drop a duplicate input event for it. */
  #justComposed: string | null = null;
  /** A paste shortcut was left to the browser; fall back if no paste event comes. */
  #pasteExpected = false;
  /** Physical keys whose press reached the program (only their release is reported). */
  #down = new Set<string>();

  /** Create the textarea inside `root` and start listening. */
  constructor(root: HTMLElement, options: InputOptions) {
    this.#root = root;
    this.#options = options;
    this.#isMac = options.isMac ?? detectMac();
    const doc = root.ownerDocument;

    const ta = doc.createElement("textarea");
    ta.className = TEXTAREA_CLASS;
    ta.setAttribute("aria-label", "Terminal input");
    ta.setAttribute("autocapitalize", "off");
    ta.setAttribute("autocomplete", "off");
    ta.setAttribute("autocorrect", "off");
    ta.setAttribute("wrap", "off");
    ta.spellcheck = false;
    // Transparent but present: display:none or visibility:hidden could not
    // take focus, and the IME needs a real caret position.
    Object.assign(
      ta.style,
      {
        position: "absolute",
        left: "0px",
        top: "0px",
        width: "1px",
        height: "1em",
        margin: "0",
        padding: "0",
        border: "0",
        outline: "none",
        resize: "none",
        overflow: "hidden",
        whiteSpace: "pre",
        opacity: "0",
        color: "transparent",
        background: "transparent",
        caretColor: "transparent",
        font: "inherit",
        lineHeight: "inherit",
        pointerEvents: "none",
        zIndex: "-1",
      } satisfies Partial<CSSStyleDeclaration>,
    );
    this.#textarea = ta;

    const view = doc.createElement("div");
    view.className = COMPOSITION_CLASS;
    view.setAttribute("aria-hidden", "true");
    Object.assign(
      view.style,
      {
        position: "absolute",
        left: "0px",
        top: "0px",
        display: "none",
        whiteSpace: "pre",
        pointerEvents: "none",
        zIndex: "5",
        font: "inherit",
        color: "inherit",
        backgroundColor: "inherit",
        textDecoration: "underline",
      } satisfies Partial<CSSStyleDeclaration>,
    );
    this.#compositionView = view;
    root.append(ta, view);

    // Lets a click focus the terminal without focusing (and so collapsing
    // the selection into) the textarea.
    if (!root.hasAttribute("tabindex")) root.tabIndex = -1;

    root.addEventListener("keydown", this.#onKeyDown);
    root.addEventListener("keyup", this.#onKeyUp);
    root.addEventListener("paste", this.#onPaste);
    root.addEventListener("copy", this.#onCopyEvent);
    root.addEventListener("focusin", this.#onFocusIn);
    root.addEventListener("focusout", this.#onFocusOut);
    root.addEventListener("mouseup", this.#onMouseUp);
    ta.addEventListener("input", this.#onInput);
    ta.addEventListener("compositionstart", this.#onCompositionStart);
    ta.addEventListener("compositionupdate", this.#onCompositionUpdate);
    ta.addEventListener("compositionend", this.#onCompositionEnd);

    const active = doc.activeElement;
    if (active !== null && root.contains(active) && doc.hasFocus()) {
      this.#focused = true;
    }
  }

  /**
   * True while keyboard focus is inside the terminal. Test hook: the page
   * itself follows focus through {@link onFocusChange}; tests read this to
   * see that a selection made with the mouse keeps the terminal focused.
   */
  get focused(): boolean {
    return this.#focused;
  }

  /** Send `text` as a paste (bracketed when the program asked for it). */
  paste(text: string): void {
    if (!this.#composing) this.#paste(text);
  }

  /** Copy the selection to the clipboard, soft-wrapped rows joined. */
  copy(): void {
    this.#copySelection();
  }

  /**
   * Give the keyboard back to the terminal without dropping a selection:
   * the terminal element takes focus while text is selected in it (the
   * textarea would replace the selection), the textarea otherwise.
   */
  refocus(): void {
    if (terminalSelection(this.#root) !== null) {
      this.#root.focus({ preventScroll: true });
    } else this.focus();
  }

  /** Give the terminal keyboard focus. */
  focus(): void {
    this.#place();
    this.#textarea.focus({ preventScroll: true });
  }

  #send(data: string): void {
    if (data === "") return;
    if (this.#options.modes().keyboardLocked) return; // KAM, as xterm
    this.#options.send(data);
    this.#options.onUserInput?.();
  }

  #onKeyDown = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || isForeignEditable(e.target, this.#textarea)) {
      return;
    }
    // The IME owns this key (keyCode 229 is "Process"); compositionend sends the result.
    if (e.isComposing || this.#composing || e.keyCode === 229) {
      this.#place();
      return;
    }
    // Tab focus mode: the browser moves the focus.
    if (
      this.tabMovesFocus && e.key === "Tab" && !e.ctrlKey && !e.altKey &&
      !e.metaKey
    ) return;
    const modes = this.#options.modes();
    if (
      MODIFIER_KEYS.has(e.key) && !(modes.kittyFlags & KITTY_REPORT_ALL_KEYS)
    ) {
      return;
    }
    if (this.#clipboardShortcut(e)) return;

    this.#down.add(e.code);
    const data = encodeKey(keyPressOf(e), modes, this.#keyOptions());
    const onTextarea = e.target === this.#textarea;
    if (data === null && isPlainText(e)) {
      // Sent here, with the default prevented, rather than from the
      // textarea's input event, which comes 2-3 ms later (after the
      // browser's editing of the textarea; docs/benchmarks.md).
      e.preventDefault();
      if (!onTextarea) this.focus();
      this.#send(e.key);
      return;
    }
    if (data === null) {
      // Text typed while root (not the textarea) has focus, e.g. after the
      // user selected something: move focus now so the character's input
      // event lands in the textarea. Shortcuts (Ctrl/Cmd) stay where they are.
      if (!onTextarea && !e.ctrlKey && !e.metaKey) this.focus();
      return;
    }
    e.preventDefault();
    if (!onTextarea) this.focus();
    this.#send(data);
  };

  #onKeyUp = (e: KeyboardEvent): void => {
    // Only keys whose press reached the program (not the copy/paste
    // shortcuts the page kept, nor keys pressed elsewhere).
    const wasDown = this.#down.delete(e.code);
    const modes = this.#options.modes();
    if (!(modes.kittyFlags & KITTY_REPORT_EVENTS) || !wasDown) return;
    if (e.defaultPrevented || isForeignEditable(e.target, this.#textarea)) {
      return;
    }
    if (e.isComposing || this.#composing || e.keyCode === 229) return;
    const data = encodeKey(keyPressOf(e), modes, this.#keyOptions());
    if (data === null) return;
    e.preventDefault();
    // A release is not user input that should scroll to the bottom.
    this.#options.send(data);
  };

  #keyOptions(): KeyOptions {
    return { isMac: this.#isMac, ...this.#options.keyOptions?.() };
  }

  /**
   * Cmd+C / Cmd+V on macOS: the browser's own copy and paste (the paste
   * event comes back to #onPaste); true if `e` is one (it never reaches
   * the PTY). encodeKey leaves Cmd+character alone. Ctrl+Shift+C and
   * Ctrl+Shift+V are the key table's (client/key_table.ts): see
   * {@link copyKey} and {@link pasteKey}.
   */
  #clipboardShortcut(e: KeyboardEvent): boolean {
    const letter = letterOf(e);
    if (letter !== "c" && letter !== "v") return false;
    return this.#isMac && e.metaKey && !e.ctrlKey && !e.altKey && !e.shiftKey;
  }

  /**
   * The copy key (Ctrl+Shift+C, which would open the element inspector):
   * always ours, but on macOS (false: the program's; Cmd+C copies there).
   */
  copyKey(e: KeyboardEvent): boolean {
    if (this.#isMac) return false;
    e.preventDefault();
    this.#copySelection();
    return true;
  }

  /**
   * The paste key (Ctrl+Shift+V). In the textarea it is the browser's
   * "paste as plain text", which fires a trusted paste event without a
   * permission prompt. If none comes (the focus is not on the textarea),
   * read the clipboard. On macOS it is the program's (false).
   */
  pasteKey(e: KeyboardEvent): boolean {
    if (this.#isMac) return false;
    if (e.target === this.#textarea) {
      this.#pasteExpected = true;
      setTimeout(() => {
        if (this.#pasteExpected) this.#pasteFromClipboard();
      }, 0);
    } else {
      e.preventDefault();
      this.#pasteFromClipboard();
    }
    return true;
  }

  #copySelection(): void {
    const doc = this.#root.ownerDocument;
    const sel = doc.getSelection();
    if (sel === null || sel.rangeCount === 0 || sel.isCollapsed) return;
    // The fallback below must join soft-wrapped rows as the copy event does.
    const text = selectedRowsText(this.#root, sel.getRangeAt(0)) ??
      sel.toString();
    let copied = false;
    try {
      // Fires a copy event, which calls onCopy.
      copied = doc.execCommand("copy");
    } catch {
      copied = false;
    }
    if (!copied) {
      navigator.clipboard?.writeText(text).then(
        () => this.#options.onCopy?.(),
        () => {},
      );
    }
  }

  #pasteFromClipboard(): void {
    this.#pasteExpected = false;
    navigator.clipboard?.readText().then(
      (text) => this.#paste(text),
      () => {}, // Permission refused: nothing to paste.
    );
  }

  #paste(text: string): void {
    if (text === "") return;
    const data = encodePaste(text, this.#options.modes().bracketedPaste);
    // The line editor takes a paste whole (client/line_input.ts).
    if (this.#options.paste) {
      this.#options.paste(text, data);
      this.#options.onUserInput?.();
    } else this.#send(data);
  }

  #onPaste = (e: ClipboardEvent): void => {
    if (isForeignEditable(e.target, this.#textarea)) return;
    this.#pasteExpected = false;
    e.preventDefault();
    if (this.#composing) return;
    this.#paste(e.clipboardData?.getData("text/plain") ?? "");
  };

  #onCopyEvent = (): void => {
    this.#options.onCopy?.();
  };

  #onInput = (e: Event): void => {
    const ie = e as InputEvent;
    const ta = this.#textarea;
    // Composition text is sent once, at compositionend.
    if (ie.isComposing || this.#composing) return;
    const type = ie.inputType;
    const data = ie.data ?? ta.value;
    ta.value = "";
    switch (type) {
      case "insertText":
      case "insertReplacementText":
        // Chromium may follow compositionend with an input event carrying the
        // same committed text: it was already sent.
        if (this.#justComposed !== null && data === this.#justComposed) {
          this.#justComposed = null;
          return;
        }
        this.#send(data);
        return;
      case "insertFromPaste":
      case "insertFromDrop":
        this.#paste(data);
        return;
      case "insertLineBreak":
      case "insertParagraph":
        // Virtual keyboards that do not send a usable keydown for Enter.
        this.#send(this.#options.modes().newlineMode ? "\r\n" : "\r");
        return;
      default:
        // insertCompositionText after compositionend (WebKit order), deletes
        // of text that is not there, history undo/redo: nothing to send.
        return;
    }
  };

  #onCompositionStart = (): void => {
    this.#composing = true;
    this.#justComposed = null;
    this.#place();
    this.#compositionView.textContent = "";
    this.#compositionView.style.display = "block";
  };

  #onCompositionUpdate = (e: CompositionEvent): void => {
    this.#compositionView.textContent = e.data ?? "";
    this.#place();
  };

  #onCompositionEnd = (e: CompositionEvent): void => {
    this.#composing = false;
    this.#compositionView.style.display = "none";
    this.#compositionView.textContent = "";
    const data = e.data ?? "";
    this.#justComposed = data;
    setTimeout(() => {
      this.#justComposed = null;
      if (!this.#composing) this.#textarea.value = "";
    }, 0);
    this.#send(data);
  };

  #onFocusIn = (): void => {
    this.#setFocused(true);
  };

  #onFocusOut = (e: FocusEvent): void => {
    // Focus moving between the textarea and root is not a focus change.
    const next = e.relatedTarget;
    if (next instanceof Node && this.#root.contains(next)) return;
    if (this.#composing) {
      // Leaving mid-composition: the IME cancels it; drop the overlay.
      this.#composing = false;
      this.#compositionView.style.display = "none";
    }
    this.#setFocused(false);
  };

  #setFocused(focused: boolean): void {
    if (focused === this.#focused) return;
    this.#focused = focused;
    if (this.#options.modes().sendFocus) {
      this.#options.send(encodeFocus(focused));
    }
    this.onFocusChange?.(focused);
  }

  #onMouseUp = (e: MouseEvent): void => {
    if (e.button !== 0) return;
    if (isForeignEditable(e.target, this.#textarea)) return;
    // Focusing the textarea would replace a selection the user just made.
    const sel = this.#root.ownerDocument.getSelection();
    if (sel !== null && !sel.isCollapsed && sel.toString() !== "") return;
    this.focus();
  };

  /** Put the textarea (and the composition overlay) on the cursor cell. */
  #place(): void {
    const r = this.#options.cursorRect?.();
    if (r === undefined) return;
    const root = this.#root.getBoundingClientRect();
    // Keep it inside root: a caret outside would make the browser scroll
    // root to reveal it.
    const left = Math.max(root.left, Math.min(r.left, root.right - r.width));
    const top = Math.max(root.top, Math.min(r.top, root.bottom - r.height));
    const view = this.#compositionView;
    const ta = this.#textarea;
    const height = `${r.height}px`;
    ta.style.height = height;
    view.style.lineHeight = height;
    view.style.minHeight = height;
    moveTo(ta, left, top);
    if (this.#composing) {
      moveTo(view, left, top);
      // Widen the textarea with the composed text so its caret, where the
      // IME opens its candidate window, follows the end of the text.
      ta.style.width = `${
        Math.max(r.width, view.getBoundingClientRect().width)
      }px`;
    } else {
      ta.style.width = `${r.width}px`;
    }
  }
}

/**
 * Move an absolutely positioned element so that its border box starts at
 * viewport point (x, y), whatever its containing block is: correct its
 * current offsets by the distance still to go.
 */
function moveTo(el: HTMLElement, x: number, y: number): void {
  const shown = el.style.display !== "none";
  if (!shown) return;
  const now = el.getBoundingClientRect();
  const left = parseFloat(el.style.left) || 0;
  const top = parseFloat(el.style.top) || 0;
  el.style.left = `${left + x - now.left}px`;
  el.style.top = `${top + y - now.top}px`;
}
