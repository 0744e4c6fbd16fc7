// A quiet notice at the bottom of the screen ("Ready offline", "An update is ready [Reload]"),
// announced politely, dismissed with its ✕ or by its action. One at a time; it lives on <body>,
// outside the content that Material's instant navigation swaps. A notice nobody asked for
// ("ready offline") is `inFlow` instead: a line at the end of the page's text, where it covers
// nothing and moves nothing above it; it leaves with the page.

let current = null;

/** Show `message`; with `action`, a button that calls `onAction`; without one, it leaves by itself
 *  after `seconds` (it must not sit over the page's own buttons). */
export function showNotice(message, { action = null, onAction = null, seconds = 10, inFlow = false } = {}) {
  current?.remove();
  const notice = document.createElement("div");
  const article = inFlow ? document.querySelector("article.md-content__inner") : null;
  notice.className = article ? "rollbook-notice rollbook-notice--in-flow md-typeset" : "rollbook-notice md-typeset";
  notice.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = message;
  notice.append(text);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button md-button--primary";
    button.textContent = action;
    button.addEventListener("click", () => { notice.remove(); onAction?.(); });
    notice.append(button);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "md-button";
  close.textContent = "✕";
  close.setAttribute("aria-label", "Dismiss");
  close.addEventListener("click", () => notice.remove());
  notice.append(close);
  (article ?? document.body).append(notice);
  current = notice;
  if (!action && !article) setTimeout(() => notice.remove(), seconds * 1000);
  return notice;
}
