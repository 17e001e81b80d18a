/** RFC 9110 §13.1.2: If-None-Match uses weak comparison and may list several tags, or `*`. */
export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const want = opaque(etag)
  return header.split(',').some((t) => opaque(t) === want)
}

export function notModified(etag: string, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 304, headers: { etag, 'cache-control': 'no-cache', ...extra } })
}
