/** Server-rendered pages: one layout, escaped text, no scripts, no CDN. Bokmål first, English beside it. */

export function esc(s: string | number | null | undefined): string {
  return String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}

/** No script runs on our pages; forms post back to this origin only. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-top:1px solid #ddd;padding-top:1rem}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}input[type=text],input[type=email],input[type=number]{width:100%;max-width:28rem;padding:.45rem;font-size:1rem;border:1px solid #777;border-radius:4px}
button{margin-top:.8rem;padding:.5rem 1rem;font-size:1rem;border:1px solid #1b4e8c;background:#1b4e8c;color:#fff;border-radius:4px;cursor:pointer}
button.secondary{background:#fff;color:#1b4e8c}button:focus,input:focus,a:focus,pre:focus{outline:3px solid #f0b400;outline-offset:2px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
.secret{font-family:ui-monospace,monospace;background:#fff7d6;border:1px solid #e0c200;padding:.6rem;word-break:break-all;display:block}
.note{color:#444}.error{border-left:4px solid #b00020;padding:.4rem .8rem;background:#fdecee}[lang=en]{color:#444}
button [lang=en]{color:inherit}.table-wrap{overflow-x:auto}.empty{color:#555;font-style:italic}
pre{overflow-x:auto;max-width:100%;box-sizing:border-box;background:#f6f6f6;border:1px solid #ddd;border-radius:4px;padding:.6rem .8rem;line-height:1.4}
pre code{white-space:pre;overflow-wrap:normal}:not(pre)>code{overflow-wrap:anywhere}main{min-width:0}
.flash{border:2px solid #e0c200;padding:.8rem;margin:1rem 0;background:#fffbea}.flash h2{border-top:0;margin-top:0;padding-top:0}
nav{display:flex;gap:1rem;align-items:center;justify-content:space-between}
.field-error{color:#b00020;font-weight:600;margin:.2rem 0}.field-error [lang=en]{color:inherit}[aria-invalid=true]{border-color:#b00020;outline:2px solid #b00020}
article.doc{color:inherit}.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
fieldset{border:1px solid #ccc;border-radius:4px;margin:1rem 0;padding:.4rem .8rem .8rem}
`

export function page(title: string, body: string, opts: { signedIn?: { csrf: string } } = {}): string {
  const nav = opts.signedIn
    ? `<nav><a href="/dashboard">Dashbord</a><form method="post" action="/logout"><input type="hidden" name="csrf_token" value="${esc(opts.signedIn.csrf)}"><button class="secondary" type="submit">Logg ut / Sign out</button></form></nav>`
    : '<nav><a href="/login">Logg inn / Sign in</a></nav>'
  return `<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} – Plikt</title><link rel="icon" href="/favicon.ico" type="image/svg+xml"><style>${STYLE}</style></head>
<body><header>${nav}</header><main>
${body}
</main></body></html>`
}

/** A page's headers, but for `Cache-Control`: a page for everyone (the docs, the recipes) is a cached document. */
export function pageHeaders(headers: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'referrer-policy': 'no-referrer',
    ...headers,
  }
}

/** A page for one visitor (sign-in, the dashboard, an error): kept by no cache. */
export function htmlResponse(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: pageHeaders({ 'cache-control': 'private, no-store', ...headers }) })
}

export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'private, no-store', ...headers } })
}

/** Bokmål and English side by side. */
/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function table(head: string, rows: string, emptyNb: string, emptyEn: string, columns: number): string {
  const body = rows || `<tr><td colspan="${columns}" class="empty">${bi(emptyNb, emptyEn)}</td></tr>`
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`
}

export function bi(nb: string, en: string): string {
  return `<span>${nb}</span> <span lang="en">/ ${en}</span>`
}

export function nok(ore: number): string {
  return `${(ore / 100).toLocaleString('nb-NO', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kr`
}

export function osloTime(d: Date | string | null): string {
  if (!d) return '–'
  return new Date(d).toLocaleString('nb-NO', { timeZone: 'Europe/Oslo', dateStyle: 'short', timeStyle: 'short' })
}
