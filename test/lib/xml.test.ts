/** The small XML reader and writer the tax authority's documents go through. */
import { describe, expect, test } from 'bun:test'
import {
  child,
  childrenNamed,
  childText,
  el,
  escapeXml,
  optional,
  parseXml,
  writeXml,
  XmlError,
} from '../../src/lib/xml.ts'

describe('reading', () => {
  test('elements, text, attributes, the declaration and comments', () => {
    const root = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?><!-- c --><a x="1" y=\'2\'><b>one</b><b>two</b><c/></a>',
    )
    expect(root.name).toBe('a')
    expect(root.attrs).toEqual({ x: '1', y: '2' })
    expect(childrenNamed(root, 'b').map((b) => b.text)).toEqual(['one', 'two'])
    expect(child(root, 'c')).toMatchObject({ name: 'c', children: [], text: '' })
  })

  test('the predefined entities, character references and CDATA', () => {
    const root = parseXml('<a>&lt;&gt;&amp;&quot;&apos;&#229;&#xE6;<![CDATA[<raw & text>]]></a>')
    expect(root.text).toBe('<>&"\'åæ<raw & text>')
  })

  test('names lose their prefix, and each element carries its resolved namespace', () => {
    const root = parseXml('<p:a xmlns:p="urn:p" xmlns="urn:d"><p:b>1</p:b><c>2</c></p:a>')
    expect([root.name, root.ns]).toEqual(['a', 'urn:p'])
    expect([child(root, 'b')!.ns, child(root, 'c')!.ns]).toEqual(['urn:p', 'urn:d'])
    expect(childText(root, 'c')).toBe('2')
  })

  test('text is trimmed by childText, kept as is on the element', () => {
    const root = parseXml('<a><b>\n  x  \n</b></a>')
    expect(childText(root, 'b')).toBe('x')
    expect(child(root, 'b')!.text).toBe('\n  x  \n')
    expect(childText(root, 'missing')).toBeUndefined()
  })

  test.each([
    ['a DOCTYPE (no entity can be defined)', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a mismatched end tag', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['text outside the root', 'junk<a/>'],
    ['two roots', '<a/><b/>'],
    ['an undeclared prefix', '<p:a/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    ['nothing at all', '   '],
    ['JSON', '{"a":1}'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseXml(text)).toThrow(XmlError)
  })

  test('refuses a document nested deeper than 64 levels', () => {
    expect(() => parseXml('<a>'.repeat(65) + '</a>'.repeat(65))).toThrow(XmlError)
    expect(parseXml('<a>'.repeat(64) + '</a>'.repeat(64)).name).toBe('a')
  })

  test('refuses a document over 1 MB', () => {
    expect(() => parseXml(`<a>${'x'.repeat(1_000_001)}</a>`)).toThrow(XmlError)
  })
})

describe('writing', () => {
  test('a document in its namespace, with nested elements; absent optional ones are left out', () => {
    expect(
      writeXml({
        name: 'r',
        ns: 'urn:x',
        children: [el('a', 1), el('b', [el('c', 'z'), optional('d', undefined), optional('e', 0)]), null],
      }),
    ).toBe('<?xml version="1.0" encoding="UTF-8"?><r xmlns="urn:x"><a>1</a><b><c>z</c><e>0</e></b></r>')
  })

  test('text is escaped, and reads back as written', () => {
    expect(escapeXml(`<a & "b" 'c'>`)).toBe('&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;')
    const text = `Tapt krav <2025> & "justering"`
    expect(childText(parseXml(writeXml({ name: 'r', ns: 'urn:x', children: [el('m', text)] })), 'm')).toBe(text)
  })
})
