/**
 * The client address that per-IP limits and audit rows use. Behind proxies that append to
 * X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`, cloud load balancers), every entry left of
 * the ones our own proxies added is whatever the client sent: only the entry the outermost trusted
 * proxy appended can be believed. With `hops` trusted proxies that is the `hops`-th entry from the
 * right. A header with fewer entries, or an entry that is not an IP address, proves nothing about
 * the client: the connection's own address is used, so a forged header never buys a fresh bucket.
 */
import { isIP } from 'node:net'

export function clientAddress(
  forwardedFor: string | null,
  socketAddress: () => string | null,
  trustedHops: number,
): string {
  // The socket's address is asked for only when it is the answer (Bun allocates it per call).
  const socket = () => socketAddress() ?? 'unknown'
  if (trustedHops === 0 || forwardedFor === null) return socket()
  const entries = forwardedFor.split(',')
  if (entries.length < trustedHops) return socket()
  const candidate = entries[entries.length - trustedHops]!.trim()
  return isIP(candidate) ? candidate : socket()
}
