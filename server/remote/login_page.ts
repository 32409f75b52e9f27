/**
 * The remote listener's login and logout pages: plain HTML forms in the
 * terminal's look (domterm.css's colours and font, both themes), no script.
 *
 * @module
 */

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );
}

const STYLE = `
body { overflow: auto; color: var(--dt-fg); font-family: var(--dt-font-family);
  font-size: var(--dt-font-size); display: grid; place-items: center; min-height: 100%; }
main { border: 1px solid var(--dt-color-8); padding: 1.5em 2em; min-width: 18em; }
h1 { font-size: 1.1em; margin: 0 0 1em; color: var(--dt-color-4); }
h1::before { content: "$ "; color: var(--dt-color-2); }
label { display: block; margin-bottom: 0.4em; }
input[type=password] { font: inherit; width: 100%; box-sizing: border-box; padding: 0.3em;
  color: var(--dt-fg); background: var(--dt-bg); border: 1px solid var(--dt-color-8);
  caret-color: var(--dt-cursor); }
input[type=password]:focus { outline: 1px solid var(--dt-cursor); }
button { font: inherit; margin-top: 1em; padding: 0.3em 1.2em; color: var(--dt-bg);
  background: var(--dt-color-4); border: 0; cursor: pointer; }
.error { color: var(--dt-color-1); margin: 0 0 1em; }
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark light">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="domterm.css">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The login form; `error` is shown above it (a failed attempt). */
export function loginPage(csrf: string, error?: string): string {
  return page(
    "domterm: log in",
    `<h1>domterm login</h1>
${
      error
        ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n`
        : ""
    }<form method="post" action="/login">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" autofocus required>
<button type="submit">Log in</button>
</form>`,
  );
}

/** The logout form (a POST, so no link or image can log anyone out). */
export function logoutPage(csrf: string): string {
  return page(
    "domterm: log out",
    `<h1>domterm logout</h1>
<form method="post" action="/logout">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit">Log out</button>
</form>`,
  );
}
