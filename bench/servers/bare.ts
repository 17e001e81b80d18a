export {}
// The yardstick: a bare Bun.serve answering with the same bytes and headers the service sent.
const [bodyFile, etag] = [process.env.BODY_FILE!, process.env.ETAG!]
// the service's Cache-Control for the same answer (no-cache when it sent none)
const cacheControl = process.env.CACHE_CONTROL || 'no-cache'
const body = await Bun.file(bodyFile).bytes()
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: '127.0.0.1',
  fetch(req) {
    if (req.headers.get('if-none-match') === etag)
      return new Response(null, {
        status: 304,
        headers: { etag, 'cache-control': cacheControl, 'x-correlation-id': crypto.randomUUID() },
      })
    return new Response(body, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        etag,
        'cache-control': cacheControl,
        'x-correlation-id': crypto.randomUUID(),
      },
    })
  },
})
console.log(`ready ${server.port}`)
