/**
 * The discovery pages for people: the front door (`/`) and the recipes (`/recipes`). Both are
 * rendered from the registry's workflows (domain/discovery), so a link or a curl on them names only
 * what exists. The front door answers an agent that asks for JSON with an index of the documents.
 */
import { frontDoorIndex } from '../../domain/discovery/capabilities.ts'
import { baseLine, currentVatTerm, recipes, type Recipe } from '../../domain/discovery/recipes.ts'
import { operationOf, toolOf, WORKFLOWS } from '../../domain/discovery/workflows.ts'
import { openApiPath } from '../../operations/index.ts'
import type { AppDeps, Handler } from '../../pipeline/context.ts'
import { cachedDocument, jsonDocument, perInstance, type CachedDocument } from '../../pipeline/caching.ts'
import { bi, esc, page, pageHeaders } from '../html.ts'

/** JSON only when asked for and HTML not preferred: a browser's `text/html,…,*\/*` and a bare `*\/*` get the page. */
function wantsJson(accept: string | null): boolean {
  return !!accept && /application\/json/i.test(accept) && !/text\/html/i.test(accept)
}

function recipeSection(r: Recipe, base: string): string {
  const w = r.workflow
  const steps = w.steps
    .map((s) => {
      const op = operationOf(s.op)
      const tool = toolOf(op)
      return `<tr><td>${esc(s.step)}${s.person ? ` <em>${bi('(en person)', '(a person)')}</em>` : ''}</td><td><code>${esc(op.method)} ${esc(openApiPath(op.path))}</code><br><small><code>${esc(op.id)}</code></small></td><td>${tool ? `<code>${esc(tool)}</code>` : '–'}</td><td>${esc(s.purpose_en)}</td></tr>`
    })
    .join('')
  const scripts = r.scripts
    .map(
      (s, i) => `<h3>${i + 1}. ${esc(s.title)}</h3>
${s.needs.length ? `<p class="note">Needs: ${s.needs.map((n) => `<code>${esc(n)}</code>`).join(', ')}</p>` : ''}
<pre tabindex="0"><code class="language-sh" data-recipe="${esc(w.id)}-${i + 1}">${esc(`${baseLine(base)}\n${s.shell}`)}</code></pre>
${s.then_person ? `<p class="flash"><strong>${bi('Så, en person', 'Then, a person')}:</strong> ${esc(s.then_person)}</p>` : ''}`,
    )
    .join('\n')
  return `<section id="${esc(w.id)}" aria-labelledby="${esc(w.id)}-title">
<h2 id="${esc(w.id)}-title">${bi(esc(w.title_nb), esc(w.title_en))}</h2>
<p>${esc(w.summary_en)}</p>
<p class="note">${esc(r.intro_en)}</p>
<div class="table-wrap"><table><thead><tr><th>Step</th><th>REST</th><th>MCP tool</th><th>Why</th></tr></thead><tbody>${steps}</tbody></table></div>
${scripts}
</section>`
}

/** Rendered and tagged once per instance and VAT term: the live filing recipe files the term that holds today. */
function recipesPage(deps: AppDeps, now: Date): CachedDocument {
  const base = deps.config.baseUrl
  return deps.documents.get(`recipes:${currentVatTerm(now)}`, () => {
    const all = recipes(now)
    const toc = all.map((r) => `<li><a href="#${esc(r.workflow.id)}">${esc(r.workflow.title_en)}</a></li>`).join('')
    const html = page(
      'Oppskrifter / Recipes',
      `<h1>${bi('Oppskrifter', 'Recipes')}</h1>
<p>${bi('Ett avsnitt per arbeidsflyt, med skript du kan kjøre.', 'One section per workflow, with scripts you can run.')} Machine-readable: <a href="/workflows.json">/workflows.json</a>; ${bi('alt på én side', 'everything in one file')}: <a href="/llms-full.txt">/llms-full.txt</a>.</p>
<p class="note">Each script is POSIX sh with curl; <code>BASE</code> is this service. The sandbox scripts run as they stand; the production ones need <code>PLIKT_KEY</code> (<a href="#first-metered-answer">how to get a key</a>).</p>
<ol>${toc}</ol>
${all.map((r) => recipeSection(r, base)).join('\n')}`,
    )
    return cachedDocument(html, pageHeaders())
  })
}

function landingPage(): string {
  const tour = WORKFLOWS.find((w) => w.id === 'sandbox-tour')!
  return page(
    'Plikt',
    `<h1>Plikt</h1>
<p>${bi(
      'Maskinlesbare svar om norske regulatoriske plikter, for programvareagenter: hvem en virksomhet er og hvem som kan handle for den, hva den må levere og når (med lovhjemmel), delegering, prøvekjøring og godkjente innsendinger med signerte kvitteringer.',
      'Machine-readable answers about Norwegian regulatory obligations, for software agents: who a company is and who may act for it, what it must file and when (with the law), delegation, dry-runs and approved filings with signed receipts.',
    )}</p>
<h2>${bi('Tur på to minutter', 'The two-minute tour')}</h2>
<p>${bi('Den åpne sandkassen trenger verken nøkkel eller registrering:', 'The public sandbox needs no key and no sign-up:')} ${esc(tour.summary_en)}</p>
<ol>${tour.steps.map((s) => `<li>${esc(s.purpose_en)}: <code>${esc(operationOf(s.op).method)} ${esc(openApiPath(operationOf(s.op).path))}</code></li>`).join('')}</ol>
<p><a href="/recipes#sandbox-tour">${bi('Skriptet som gjør alt dette', 'The script that does all of it')}</a></p>
<h2>${bi('Videre', 'Next')}</h2>
<ul>
<li><a href="/docs">${bi('API-referanse', 'API reference')}</a> (OpenAPI: <a href="/openapi.json">/openapi.json</a>)</li>
<li><a href="/recipes">${bi('Oppskrifter', 'Recipes')}</a> — ${bi('én per arbeidsflyt', 'one per workflow')}</li>
<li><a href="/llms.txt">/llms.txt</a> ${bi('for agenter', 'for agents')}</li>
<li><a href="${esc(operationOf('loginPage').path)}">${bi('Logg inn eller registrer deg', 'Sign in or sign up')}</a> ${bi('for en nøkkel', 'for a key')}</li>
</ul>`,
  )
}

// The front door's two representations; `Vary: Accept` comes with its cache policy (operations/discovery.ts).
const frontDoorJson = perInstance('front-door.json', (deps: AppDeps) =>
  jsonDocument(frontDoorIndex(deps.config.baseUrl)),
)

export const discoveryPageHandlers = {
  getFrontDoor: (({ headers, deps }) => ({
    data: undefined,
    document: wantsJson(headers.accept)
      ? frontDoorJson(deps)
      : deps.documents.get('front-door.html', () => cachedDocument(landingPage(), pageHeaders())),
  })) satisfies Handler,

  getRecipes: (({ deps, now }) => ({ data: undefined, document: recipesPage(deps, now) })) satisfies Handler,
}
