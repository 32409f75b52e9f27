/**
 * OSC 52 clipboard reads in the window: a program's query
 * (`OSC 52 ; c ; ? ST`) is answered, refused or put to the user, by the
 * policy: "never", "ask" (the default: a bar at the top of the window
 * with Allow and Deny) or "always". The answer goes to the program as
 * input, like a key, from the window the user is in.
 *
 * @module
 */

/** Whether programs may read the clipboard. */
export type ClipboardReadPolicy = "never" | "ask" | "always";

/** What the prompt needs from the page. */
export interface ClipboardReadHost {
  /** Send the answer to the program (as input). */
  send(data: string): void;
  /** The reply for `selection` with `text` (`Terminal.clipboardReply`). */
  reply(selection: string, text: string): string;
  /** Give the keyboard back to the terminal. */
  focusTerminal(): void;
}

/** The policy and the prompt. */
export class ClipboardRead {
  #policy: ClipboardReadPolicy = "ask";
  #bar: HTMLElement | null = null;
  /** Selections asked for while the bar is up, answered together. */
  #pending: string[] = [];

  constructor(
    private readonly doc: Document,
    private readonly host: ClipboardReadHost,
  ) {}

  /** The current policy. */
  get policy(): ClipboardReadPolicy {
    return this.#policy;
  }

  /** Set the policy (the settings' `clipboard-read` key); a prompt up is closed as denied when it becomes "never". */
  setPolicy(policy: ClipboardReadPolicy): void {
    this.#policy = policy;
    if (policy === "never") this.#close();
  }

  /** A program asked for `selection`. */
  request(selection: string): void {
    switch (this.#policy) {
      case "never":
        return;
      case "always":
        // Only the window in use answers (every window sees the query).
        if (this.doc.hasFocus()) void this.#answer([selection]);
        return;
      case "ask":
        this.#pending.push(selection);
        this.#open();
    }
  }

  async #answer(selections: string[]): Promise<void> {
    let text = "";
    try {
      text = await navigator.clipboard.readText();
    } catch {
      text = ""; // no permission or no text: an empty answer, as xterm's
    }
    for (const sel of selections) this.host.send(this.host.reply(sel, text));
  }

  #open(): void {
    if (this.#bar !== null) return;
    const doc = this.doc;
    const bar = doc.createElement("div");
    bar.className = "dt-clipboard-ask";
    bar.setAttribute("role", "alertdialog");
    bar.setAttribute("aria-label", "Clipboard request");
    const text = doc.createElement("span");
    text.textContent = "A program asks to read the clipboard.";
    text.id = "dt-clipboard-ask-text";
    bar.setAttribute("aria-describedby", text.id);
    const allow = doc.createElement("button");
    allow.type = "button";
    allow.textContent = "Allow";
    allow.className = "dt-clipboard-allow";
    const deny = doc.createElement("button");
    deny.type = "button";
    deny.textContent = "Deny";
    deny.className = "dt-clipboard-deny";
    allow.addEventListener("click", () => {
      const sel = this.#pending;
      this.#close();
      void this.#answer(sel);
    });
    deny.addEventListener("click", () => this.#close());
    bar.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        this.#close();
      }
      e.stopPropagation(); // keys here are not the program's
    });
    bar.append(text, allow, deny);
    doc.body.append(bar);
    this.#bar = bar;
    allow.focus();
  }

  /** Close the prompt; what was pending gets no answer (denied). */
  #close(): void {
    this.#pending = [];
    if (this.#bar === null) return;
    this.#bar.remove();
    this.#bar = null;
    this.host.focusTerminal();
  }
}
