/**
 * Just enough XML for the tax authority's documents (the VAT return, its envelope and the
 * validation result): writing elements with escaped text, and reading a document into a tree.
 *
 * The reader knows elements, attributes, text, CDATA, comments and the five predefined entities
 * plus character references. It refuses a DOCTYPE (no entity can be defined, so none can expand or
 * reach a file), anything deeper than 64 levels and anything over 1 MB: what we read are answers
 * from outside, and an answer we cannot read is reported as such, never guessed at. Names are kept
 * without their namespace prefix, and the namespace of each element is resolved, so a caller can
 * check it.
 */

export interface XmlElement {
  /** local name, without prefix */
  name: string
  /** the element's namespace URI ('' when none) */
  ns: string
  attrs: Record<string, string>
  children: XmlElement[]
  /** the element's own text (concatenated, untrimmed) */
  text: string
}

export class XmlError extends Error {
  override name = 'XmlError'
}

const MAX_BYTES = 1_000_000
const MAX_DEPTH = 64

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decode(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return codePoint(Number.parseInt(ref.slice(2), 16), whole)
    if (ref.startsWith('#')) return codePoint(Number(ref.slice(1)), whole)
    const named = ENTITIES[ref]
    if (named === undefined) throw new XmlError(`unknown entity ${whole}`)
    return named
  })
}

function codePoint(n: number, whole: string): string {
  if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) || n === 0)
    throw new XmlError(`invalid character reference ${whole}`)
  return String.fromCodePoint(n)
}

const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y
const ATTR = /\s+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y

/** The document's root element. Throws XmlError on anything that is not well-formed. */
export function parseXml(text: string): XmlElement {
  if (text.length > MAX_BYTES) throw new XmlError('document too large')
  let i = 0
  const stack: { el: XmlElement; qname: string; scope: Record<string, string> }[] = []
  let root: XmlElement | null = null

  const fail = (what: string): never => {
    throw new XmlError(`${what} at offset ${i}`)
  }

  while (i < text.length) {
    const lt = text.indexOf('<', i)
    const chunk = lt === -1 ? text.slice(i) : text.slice(i, lt)
    if (chunk.length > 0) {
      const top = stack[stack.length - 1]
      if (top) top.el.text += decode(chunk)
      else if (chunk.trim() !== '') fail('text outside the root element')
    }
    if (lt === -1) break
    i = lt
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i)
      if (end === -1) fail('unterminated processing instruction')
      i = end + 2
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4)
      if (end === -1) fail('unterminated comment')
      i = end + 3
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i)
      const top = stack[stack.length - 1]
      if (end === -1 || !top) fail('CDATA outside an element')
      top!.el.text += text.slice(i + 9, end)
      i = end + 3
    } else if (text.startsWith('<!', i)) {
      fail('DOCTYPE and declarations are not accepted')
    } else if (text.startsWith('</', i)) {
      NAME.lastIndex = i + 2
      const m = NAME.exec(text)
      const top = stack.pop()
      if (!m || !top || m[0] !== top.qname) fail('mismatched end tag')
      i = NAME.lastIndex
      while (/\s/.test(text[i] ?? '')) i++
      if (text[i] !== '>') fail('malformed end tag')
      i++
    } else {
      NAME.lastIndex = i + 1
      const m = NAME.exec(text)
      if (!m) fail('malformed start tag')
      const qname = m![0]
      i = NAME.lastIndex
      const rawAttrs: Record<string, string> = {}
      for (;;) {
        ATTR.lastIndex = i
        const a = ATTR.exec(text)
        if (!a) break
        if (Object.hasOwn(rawAttrs, a[1]!)) fail(`duplicate attribute ${a[1]}`)
        rawAttrs[a[1]!] = decode(a[2] ?? a[3] ?? '')
        i = ATTR.lastIndex
      }
      while (/\s/.test(text[i] ?? '')) i++
      const selfClosing = text.startsWith('/>', i)
      if (!selfClosing && text[i] !== '>') fail('malformed start tag')
      i += selfClosing ? 2 : 1
      if (root && stack.length === 0) fail('a second root element')
      if (stack.length >= MAX_DEPTH) fail('document too deep')
      const parentScope = stack[stack.length - 1]?.scope ?? {}
      const scope = { ...parentScope }
      const attrs: Record<string, string> = {}
      for (const [k, v] of Object.entries(rawAttrs)) {
        if (k === 'xmlns') scope[''] = v
        else if (k.startsWith('xmlns:')) scope[k.slice(6)] = v
        else attrs[k.includes(':') ? k.slice(k.indexOf(':') + 1) : k] = v
      }
      const colon = qname.indexOf(':')
      const prefix = colon === -1 ? '' : qname.slice(0, colon)
      const ns = scope[prefix]
      if (ns === undefined && prefix !== '') fail(`undeclared prefix ${prefix}`)
      const el: XmlElement = {
        name: colon === -1 ? qname : qname.slice(colon + 1),
        ns: ns ?? '',
        attrs,
        children: [],
        text: '',
      }
      const parent = stack[stack.length - 1]
      if (parent) parent.el.children.push(el)
      else root = el
      if (!selfClosing) stack.push({ el, qname, scope })
    }
  }
  if (stack.length > 0) throw new XmlError(`unclosed element ${stack[stack.length - 1]!.qname}`)
  if (!root) throw new XmlError('no root element')
  return root
}

/** The first child element with this local name. */
export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name)
}

/** Every child element with this local name. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name)
}

/** The trimmed text of the first child with this name; undefined when there is no such child. */
export function childText(el: XmlElement, name: string): string | undefined {
  const c = child(el, name)
  return c === undefined ? undefined : c.text.trim()
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
}

/** A node to write: an element with text, with children, or nothing (skipped). */
export type XmlNode = { name: string; text: string } | { name: string; children: XmlNode[] } | null

export const el = (name: string, content: string | number | XmlNode[]): XmlNode =>
  Array.isArray(content) ? { name, children: content } : { name, text: String(content) }

/** An element only when the value is present. */
export const optional = (name: string, value: string | number | undefined | null): XmlNode =>
  value === undefined || value === null ? null : el(name, value)

function write(node: XmlNode, out: string[]): void {
  if (node === null) return
  if ('text' in node) {
    out.push(`<${node.name}>${escapeXml(node.text)}</${node.name}>`)
    return
  }
  out.push(`<${node.name}>`)
  for (const c of node.children) write(c, out)
  out.push(`</${node.name}>`)
}

/** A document: the declaration, then the root element in its default namespace. */
export function writeXml(root: { name: string; ns: string; children: XmlNode[] }): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<${root.name} xmlns="${escapeXml(root.ns)}">`]
  for (const c of root.children) write(c, out)
  out.push(`</${root.name}>`)
  return out.join('')
}
