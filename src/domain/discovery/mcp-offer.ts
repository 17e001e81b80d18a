/**
 * What the MCP server offers besides tools — resources, resource templates, prompts, completions —
 * as the discovery documents name it (the capabilities document's `mcp` block,
 * `/.well-known/mcp.json`, llms.txt) and the agent-readiness probe counts it: from the same
 * descriptors the server serves (mcp-resources.ts, mcp-prompts.ts), so no document names a resource
 * or prompt that does not exist.
 */
import { allOperations, isKeyless, type Operation } from '../../operations/index.ts'
import { isTemplate, RESOURCE_SCHEME, resourceDescriptors } from './mcp-resources.ts'
import { PROMPTS } from './mcp-prompts.ts'

/** How a host learns that a resource changed: the server is stateless and sends no notifications. */
export const CHANGE_SIGNALLING =
  'Stateless: no notifications (no listChanged, no subscribe). Every read carries `_meta.rulebook_version`, and a keyless answer any cache may keep `_meta.etag` — the strong ETag REST gives the same answer, which changes with its data, the rulebook version and the release. Listed resources name `_meta.rulebook_version` too. A host that keeps a copy lists again or re-reads (keyless reads are free) and compares; the capabilities document’s `rulebook_version` and the rulebook changelog say what changed.'

/** What each completable argument completes from, and what it costs. */
export const COMPLETIONS: Readonly<Record<string, string>> = {
  org_number:
    'From a name fragment of 2 characters or more. With a key: a `search_companies` call, charged and refused as that tool is (50 øre when it finds something; zero hits are free), its candidates’ organisation numbers. Under a test key or the sandbox bearer, and for the sandbox rehearsal’s prompt: the sandbox’s synthetic companies, free. Without a key nothing is looked up. Nine digits are offered back as they are, free.',
  entity_type: 'The rulebook’s entity types (AS, ENK, ANS, DA, NUF), free.',
  period: 'VAT periods of this year and the last, the current two-month term first, free.',
  year: 'The rulebook’s years, this one first, free.',
  language: '`nb` or `en`, free.',
}

export function mcpOffer(ops: readonly Operation[] = allOperations) {
  const resources = resourceDescriptors(ops)
  return {
    uri_scheme: RESOURCE_SCHEME,
    resources: resources.flatMap((d) =>
      d.listed.map((l) => ({ uri: l.uri, name: l.name, title: l.title, mime_type: d.mimeType, keyless: d.keyless })),
    ),
    resource_templates: resources.filter(isTemplate).map((d) => ({
      uri_template: d.uriTemplate,
      name: d.name,
      title: d.title,
      mime_type: d.mimeType,
      keyless: d.keyless,
      operation_id: d.operation.id,
      price_ore: d.operation.costOre,
    })),
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      arguments: p.arguments.map((a) => ({ name: a.name, required: a.required })),
    })),
    completions: COMPLETIONS,
    change_signalling: CHANGE_SIGNALLING,
  }
}

/** The counts the agent-readiness probe reports: tools (every name once), resources, templates, prompts. */
export function mcpCounts(ops: readonly Operation[] = allOperations) {
  const offer = mcpOffer(ops)
  const tools = new Set(ops.flatMap((o) => (o.mcpTool ? [o.mcpTool] : [])))
  const keylessTools = new Set(ops.flatMap((o) => (o.mcpTool && isKeyless(o) ? [o.mcpTool] : [])))
  return {
    tools: tools.size,
    keyless_tools: keylessTools.size,
    resources: offer.resources.length,
    resource_templates: offer.resource_templates.length,
    keyless_resource_templates: offer.resource_templates.filter((t) => t.keyless).length,
    prompts: offer.prompts.length,
    completions: Object.keys(offer.completions).length,
  }
}
