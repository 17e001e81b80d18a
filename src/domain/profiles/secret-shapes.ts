/**
 * Whether a string looks like a credential or an identity number, so that a saved profile never
 * holds one. Shapes, not lookups: every prefix we mint (API keys, issuance tokens, the sandbox
 * bearer, approval tokens), webhook secrets (`whsec_`), JWTs — which is what Maskinporten and
 * Altinn tokens, and OAuth access tokens, are — a `Bearer …` credential, and a fødselsnummer or
 * D-number (never stored in clear). Secrets we mint without a prefix (session and magic-link
 * tokens) have no shape to tell them from other random text, and are not looked for.
 *
 * Every scan is linear in the string: prefixes by indexOf, JWTs over runs of base64url-and-dot
 * characters, identity numbers over runs of digits, so a hostile 64 KiB string costs one pass.
 */
import { isIdentityNumber } from '../../lib/fnr.ts'
import { ISSUANCE_PREFIX, KEY_PREFIX, SANDBOX_BEARER_PREFIX } from '../access/types.ts'
import { APPROVAL_TOKEN_PREFIX } from '../actions/approval.ts'

interface PrefixShape {
  prefix: string
  /** characters of the secret's alphabet that must follow the prefix */
  min: number
  alphabet: RegExp
  what: string
}

const ALNUM = /[A-Za-z0-9]/
/** the sandbox bearer's suffix may hold _ and - */
const SUFFIX = /[A-Za-z0-9_-]/

const PREFIXES: PrefixShape[] = [
  ...Object.values(KEY_PREFIX).map((prefix) => ({ prefix, min: 1, alphabet: SUFFIX, what: `an API key (${prefix}…)` })),
  { prefix: ISSUANCE_PREFIX, min: 1, alphabet: SUFFIX, what: `an issuance token (${ISSUANCE_PREFIX}…)` },
  { prefix: SANDBOX_BEARER_PREFIX, min: 1, alphabet: SUFFIX, what: `a sandbox bearer (${SANDBOX_BEARER_PREFIX}…)` },
  // Short prefixes can end an ordinary word: they count only at a word's start, with a secret's length after them.
  { prefix: APPROVAL_TOKEN_PREFIX, min: 16, alphabet: ALNUM, what: `an approval token (${APPROVAL_TOKEN_PREFIX}…)` },
  { prefix: 'whsec_', min: 16, alphabet: /[A-Za-z0-9+/=]/, what: 'a webhook secret (whsec_…)' },
]

/** The svc_… prefixes are distinctive enough to count wherever they stand; these only at a word's start. */
const WORD_START = new Set([APPROVAL_TOKEN_PREFIX, 'whsec_'])

function hasPrefixed(s: string, p: PrefixShape): boolean {
  for (let at = s.indexOf(p.prefix); at !== -1; at = s.indexOf(p.prefix, at + 1)) {
    if (WORD_START.has(p.prefix) && at > 0 && ALNUM.test(s[at - 1]!)) continue
    let n = 0
    for (let i = at + p.prefix.length; i < s.length && n < p.min && p.alphabet.test(s[i]!); i++) n++
    if (n >= p.min) return true
  }
  return false
}

/** A JWT (JWS or JWE): a first segment that is base64url JSON (`eyJ…`), then at least two more. */
function hasJwt(s: string): boolean {
  for (const run of s.matchAll(/[A-Za-z0-9_.-]+/g)) {
    const parts = run[0].split('.')
    for (let i = 0; i + 2 < parts.length; i++)
      if (parts[i]!.startsWith('eyJ') && parts[i]!.length >= 8 && parts[i + 1]!.length >= 2) return true
  }
  return false
}

const BEARER = /(?:^|[^A-Za-z0-9])bearer\s+[A-Za-z0-9._~+/=-]{8}/i

/**
 * Digits in groups joined by single separators (space, no-break space, `-`, `.`), as people write
 * numbers: `010180 10018`, `010180-10018`, `010180.10018`. Any whole groups next to one another that
 * make eleven digits and pass both control digits are an identity number, so a separator never
 * hides one. Linear: each group starts at most eleven digits' worth of joined groups.
 */
function hasIdentityNumber(s: string): boolean {
  for (const run of s.matchAll(/[0-9]+(?:[ \u00a0.-][0-9]+)*/g)) {
    const groups = run[0].split(/[ \u00a0.-]/)
    for (let i = 0; i < groups.length; i++) {
      let digits = ''
      for (let j = i; j < groups.length && digits.length < 11; j++) digits += groups[j]
      if (digits.length === 11 && isIdentityNumber(digits)) return true
    }
  }
  return false
}

/** What the string looks like, said for an error message (never the string itself); null when it looks like none of them. */
export function secretShapeOf(s: string): string | null {
  for (const p of PREFIXES) if (hasPrefixed(s, p)) return p.what
  if (hasJwt(s)) return 'a JWT (such as a Maskinporten, Altinn or OAuth token)'
  if (BEARER.test(s)) return 'a bearer credential (Bearer …)'
  if (hasIdentityNumber(s)) return 'an identity number (fødselsnummer or D-number)'
  return null
}
