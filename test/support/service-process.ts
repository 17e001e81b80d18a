/**
 * A service started in a process of its own (`bun src/main.ts`, the binary, an older release):
 * its address, read from the start banner on stderr.
 */

/**
 * Reads `stderr` until the banner says where the service listens (`banner`: the text up to then).
 * The rest of stderr keeps being read, so the child never blocks on a full pipe; `rest` is that
 * text, once the child has closed it. A child that stops before listening is an error carrying
 * everything it wrote.
 */
export async function listeningAddress(
  stderr: ReadableStream<Uint8Array>,
): Promise<{ url: string; banner: string; rest: Promise<string> }> {
  const reader = stderr.getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the service stopped before listening:\n${text}`)
    text += decoder.decode(value, { stream: true })
    const m = /listening on (http:\/\/\S+)/.exec(text)
    if (m) {
      const rest = (async () => {
        let more = ''
        for (;;) {
          const next = await reader.read()
          if (next.done) return more
          more += decoder.decode(next.value, { stream: true })
        }
      })()
      return { url: m[1]!, banner: text, rest }
    }
  }
}

/**
 * A port for a service that must be told its port in advance (METRICS_PORT, or a PORT that
 * BASE_URL names): below Linux's ephemeral range (32 768 and up), where outgoing connections and
 * port-0 listeners — every other test's servers — take theirs, and free when asked. A random port
 * inside that range was once taken by one of the suite's own connections.
 */
export function freeFixedPort(): number {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    try {
      Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response(null) }).stop(true)
      return port
    } catch {
      // taken: try another
    }
  }
}

/**
 * An account on a service running in its own process, made as its operator makes one (the admin
 * routes): a consumer of `tier`, `amountOre` of credits, and a key. Answers the consumer's id and the key.
 */
export async function accountOn(
  url: string,
  adminToken: string,
  o: { email: string; tier: string; amountOre: number; reason: string },
): Promise<{ consumer: string; key: string }> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) =>
    (await (await fetch(`${url}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) })).json()) as {
      data: Record<string, string>
    }
  const consumer = (await post('/api/v1/admin/consumers', { email: o.email, tier: o.tier })).data.consumer_id!
  await post('/api/v1/admin/credits', { consumer_id: consumer, amount_ore: o.amountOre, reason: o.reason })
  const key = (await post('/api/v1/admin/keys', { consumer_id: consumer })).data.plaintext_key!
  return { consumer, key }
}
