/**
 * What the page shows of the `seq N` command's group (run in the page with
 * `page.evaluate(seqFoldState, N)`): its fold button's aria-expanded and
 * the output rows 1..N shown.
 */
export function seqFoldState(
  n: number,
): { expanded: string | null; shown: string[] } {
  const rows = Array.from(
    document.querySelectorAll<HTMLElement>("#terminal .dt-row"),
  );
  const prompt = rows.find((r) =>
    (r.textContent ?? "").trimEnd().startsWith(`$ seq ${n}`)
  );
  return {
    expanded: prompt?.querySelector(".dt-fold-button")?.getAttribute(
      "aria-expanded",
    ) ?? null,
    shown: rows.filter((r) => {
      const text = (r.textContent ?? "").trimEnd();
      return !r.hidden && !r.querySelector(".dt-fold-summary") &&
        /^[0-9]+$/.test(text) && Number(text) >= 1 && Number(text) <= n;
    }).map((r) => (r.textContent ?? "").trimEnd()),
  };
}
