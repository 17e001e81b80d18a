import { CATALOGUE, ERROR_CODES, type CatalogueEntry } from '../errors/catalogue/index.ts'
import type { AppDeps, Handler } from '../pipeline/context.ts'
import {
  cacheControl,
  cachedDocument,
  ifNoneMatch,
  jsonDocument,
  notModified,
  perInstance,
  type CachedDocument,
} from '../pipeline/caching.ts'
import { CACHE } from '../operations/define.ts'
import { buildOpenApi } from './openapi.ts'
import { esc, page, pageHeaders } from './html.ts'
// File imports so the single binary carries the docs UI: /docs must work without internet.
import swaggerCss from '../../node_modules/swagger-ui-dist/swagger-ui.css' with { type: 'file' }
// @ts-expect-error -- a file import yields the path, not the script's exports
import swaggerJs from '../../node_modules/swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }

// Embedded as text: the recipes the answers point to are served by the binary itself.
import RECEIPT_RECIPE from '../../docs/receipt-signature.md' with { type: 'text' }
import ANCHOR_RECIPE from '../../docs/anchor-proof.md' with { type: 'text' }
import WEBHOOK_RECIPE from '../../docs/webhook-signature.md' with { type: 'text' }

export const DOCS_ASSETS: Record<string, { path: string; type: string }> = {
  'swagger-ui.css': { path: swaggerCss, type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { path: swaggerJs as string, type: 'text/javascript; charset=utf-8' },
}

/** Scripts only from this origin: the docs page works offline and runs nothing inline. */
const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"

const INIT_JS = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });\n`
DOCS_ASSETS['init.js'] = { path: '', type: 'text/javascript; charset=utf-8' }

export function docsAsset(name: string): Response | null {
  // own names only: `constructor` and the like are no asset
  const asset = Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name] : undefined
  if (!asset) return null
  const body = name === 'init.js' ? INIT_JS : Bun.file(asset.path)
  return new Response(body, { headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' } })
}

/**
 * The site's icon: the letter P in the pages' blue, as SVG (every browser we serve takes an SVG
 * favicon, whatever the path says). Like the docs assets it is a file of the site, not an
 * operation; it is a static document all the same (pipeline/caching.ts): made and tagged once,
 * public for as long as the docs, a strong ETag and 304 to a matching If-None-Match.
 */
const FAVICON = cachedDocument(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1b4e8c"/>' +
    '<path d="M11 25V7h7a5.5 5.5 0 0 1 0 11h-4v7z" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round"/></svg>',
  { 'content-type': 'image/svg+xml', 'x-content-type-options': 'nosniff' },
)

export function favicon(request: Request): Response {
  const headers = { ...FAVICON.headers, etag: FAVICON.etag, 'cache-control': cacheControl(CACHE.discovery) }
  if (ifNoneMatch(request.headers.get('if-none-match'), FAVICON.etag))
    return notModified({ etag: headers.etag, 'cache-control': headers['cache-control'] })
  return new Response(FAVICON.blob, { headers })
}

/** Built, serialised and tagged once per instance. */
const openApi = perInstance('openapi.json', (deps: AppDeps) => jsonDocument(buildOpenApi(deps.config.baseUrl)))

/** The docs pages load Swagger UI's script from this origin, so they need a CSP of their own. */
function htmlDocument(body: string): CachedDocument {
  return cachedDocument(body, pageHeaders({ 'content-security-policy': DOCS_CSP }))
}

/**
 * A recipe of docs/ as a page like the other docs pages (issue 27, item 17): rendered from the
 * Markdown once per instance, with our own layout. The recipes are ours and hold no HTML: any
 * that slipped in is shown as text. Code blocks scroll inside themselves (keyboard too: they take
 * focus), tables in their own wrapper.
 */
export function recipePage(markdown: string): CachedDocument {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Plikt'
  const body = Bun.markdown
    .html(markdown, { headings: { ids: true }, noHtmlBlocks: true, noHtmlSpans: true, tagFilter: true })
    .replaceAll('<pre>', '<pre tabindex="0">')
    .replaceAll('<table>', '<div class="table-wrap"><table>')
    .replaceAll('</table>', '</table></div>')
  return cachedDocument(page(title, `<article class="doc" lang="en">${body}</article>`), pageHeaders())
}

const receiptDocs = recipePage(RECEIPT_RECIPE)
const anchorDocs = recipePage(ANCHOR_RECIPE)
const webhookDocs = recipePage(WEBHOOK_RECIPE)

function renderErrorDocs(): string {
  const sections = ERROR_CODES.map((code) => {
    const e: CatalogueEntry = CATALOGUE[code]
    const x = e.explanation
    const steps = (list: readonly string[]) => `<ol>${list.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>`
    const handover = x.handover
      ? `<p><strong>Overlevering / handover</strong> (${esc(x.handover.who)}, ${esc(x.handover.where)}): ${esc(x.handover.what)} — <em lang="en">${esc(x.handover.what_en)}</em></p>`
      : ''
    return `<section id="${code}">
<h2><code>${code}</code></h2>
<p>HTTP ${e.status} · ${e.category} · retryable: ${e.retryable}</p>
<div lang="nb"><p><strong>${esc(x.summary)}</strong> ${esc(x.why)}</p>${steps(x.fix_steps)}</div>
<div lang="en"><p><strong>${esc(x.summary_en)}</strong> ${esc(x.why_en)}</p>${steps(x.fix_steps_en)}</div>
${x.legal_basis ? `<p>Rettsgrunnlag / legal basis: ${esc(x.legal_basis)}</p>` : ''}
${x.relevant_link ? `<p><a href="${esc(x.relevant_link)}">${esc(x.relevant_link)}</a></p>` : ''}
${handover}
</section>`
  }).join('\n')
  return `<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plikt – feilkoder / error codes</title>
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.45}section{border-top:1px solid #ddd;padding-top:.5rem}code{font-size:1.05em;overflow-wrap:anywhere}</style>
</head><body>
<h1>Feilkoder / Error codes</h1>
<p>Branch on <code>error_code</code>. Machine-readable: <a href="/api/v1/errors">/api/v1/errors</a>; full explanations: <code>POST /api/v1/explain</code>.</p>
${sections}
</body></html>`
}

export const discoveryHandlers = {
  getOpenApi: (({ deps }) => ({ data: undefined, document: openApi(deps) })) satisfies Handler,

  getApiDocs: (({ deps }) => ({
    data: undefined,
    document: deps.documents.get('docs', () =>
      htmlDocument(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plikt API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body>
<div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`),
    ),
  })) satisfies Handler,

  getErrorDocs: (({ deps }) => ({
    data: undefined,
    document: deps.documents.get('docs/errors', () => htmlDocument(renderErrorDocs())),
  })) satisfies Handler,
  getReceiptDocs: (() => ({ data: undefined, document: receiptDocs })) satisfies Handler,
  getAnchorProofDocs: (() => ({ data: undefined, document: anchorDocs })) satisfies Handler,
  getWebhookDocs: (() => ({ data: undefined, document: webhookDocs })) satisfies Handler,
}
