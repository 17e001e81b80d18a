/**
 * The publishers' XML schemas as the judge: libxml2 (compiled to WebAssembly, `xmllint-wasm`)
 * validates documents against an XSD kept in `contracts/`. Many documents go in one call (each
 * call starts the WebAssembly module afresh, ~0.1 s), and each gets its own verdict.
 */
import { validateXML } from 'xmllint-wasm'

const ROOT = new URL('../../../contracts/', import.meta.url)

export const TAX_AUTHORITY_XSD = {
  mvaMelding: 'skatteetaten-mva/xsd/no.skatteetaten.fastsetting.avgift.mva.skattemeldingformerverdiavgift.v1.0.xsd',
  konvolutt: 'skatteetaten-mva/xsd/no.skatteetaten.fastsetting.avgift.mva.mvameldinginnsending.v1.0.xsd',
  valideringsresultat: 'skatteetaten-mva/xsd/no.skatteetaten.fastsetting.avgift.mva.valideringsresultat.v1.xsd',
} as const

/** A file under `contracts/`, as text. */
export function contractText(path: string): Promise<string> {
  return Bun.file(new URL(path, ROOT)).text()
}

/** Each document's schema errors, in the order given; an empty list is a valid document. */
export async function xsdErrors(schemaPath: string, docs: string[]): Promise<string[][]> {
  if (docs.length === 0) return []
  const schema = await contractText(schemaPath)
  const names = docs.map((_, i) => `doc-${i}.xml`)
  const result = await validateXML({
    xml: docs.map((contents, i) => ({ fileName: names[i]!, contents })),
    schema: [{ fileName: 'schema.xsd', contents: schema }],
  })
  const byDoc = docs.map((): string[] => [])
  for (const e of result.errors) {
    // libxml2 closes each failed document with "<file> fails to validate", which names no location.
    const i = names.indexOf(e.loc?.fileName ?? /^(doc-\d+\.xml) fails to validate$/.exec(e.rawMessage)?.[1] ?? '')
    // An error naming no document (the schema itself) fails every one: nothing was judged.
    if (i === -1) for (const list of byDoc) list.push(e.rawMessage)
    else byDoc[i]!.push(e.message)
  }
  return byDoc
}

/** One document's schema errors. */
export async function xsdErrorsOf(schemaPath: string, doc: string): Promise<string[]> {
  return (await xsdErrors(schemaPath, [doc]))[0]!
}
