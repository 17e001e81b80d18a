/**
 * What a live adapter hands back: the upstream's answer as it came over the wire. The cache and the
 * snapshot archive keep exactly this; `map.ts` of each system turns it into our shapes. Keeping the
 * raw text (not a parsed object) is what lets the archive prove later what an answer was built from.
 */

export type UpstreamSystem = 'enhetsregisteret' | 'fullmakt' | 'regnskapsregisteret' | 'norges-bank'

/** The names a Norwegian reader knows the systems by; used in error texts ({upstream_system}). */
export const SYSTEM_NAMES: Record<UpstreamSystem, string> = {
  enhetsregisteret: 'Enhetsregisteret',
  fullmakt: 'Brønnøysundregistrenes fullmakttjeneste',
  regnskapsregisteret: 'Regnskapsregisteret',
  'norges-bank': 'Norges Bank',
}

/** The publisher named in `_meta.data_source`. */
export const DATA_SOURCES: Record<UpstreamSystem, string> = {
  enhetsregisteret: 'Brønnøysundregistrene (Enhetsregisteret)',
  fullmakt: 'Brønnøysundregistrene (Fullmakttjenesten)',
  regnskapsregisteret: 'Brønnøysundregistrene (Regnskapsregisteret)',
  'norges-bank': 'Norges Bank',
}

export interface RawResponse {
  system: UpstreamSystem
  url: string
  status: number
  contentType: string | null
  body: string
  fetchedAt: Date
}

/**
 * The upstream answered, but not in the format we know (not JSON, a required field missing or of
 * the wrong type). Thrown by `map.ts`; the domain turns it into the catalogued upstream error or a
 * degraded section — never a 500.
 */
export class MalformedUpstream extends Error {
  override name = 'MalformedUpstream'
  constructor(
    readonly system: UpstreamSystem,
    readonly reason: string,
  ) {
    super(`${system}: ${reason}`)
  }
}

/** JSON.parse that reports garbage as MalformedUpstream. */
export function parseJson(raw: RawResponse): unknown {
  try {
    return JSON.parse(raw.body)
  } catch {
    throw new MalformedUpstream(raw.system, `body is not JSON (HTTP ${raw.status}, ${raw.body.length} bytes)`)
  }
}
