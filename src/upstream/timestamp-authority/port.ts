/**
 * An RFC 3161 time-stamping authority (TSA_URL): it signs that a hash existed at a time. Used for
 * the daily anchor roots; anyone can check a token with `openssl ts -verify` and the authority's
 * certificate (docs/anchor-proof.md).
 */
export interface TimeStamp {
  /** the DER TimeStampToken (CMS ContentInfo), as the authority signed it */
  token: Buffer
  /** TSTInfo.genTime */
  genTime: Date
}

export interface TimestampAuthority {
  url: string
  /** A token over this SHA-256 hash; throws when the authority refuses or answers something else. */
  timestamp(sha256: Buffer): Promise<TimeStamp>
}
