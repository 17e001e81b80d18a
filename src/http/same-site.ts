import { AppError } from '../errors/app-error.ts'

/**
 * A form post must come from one of our own pages. The CSRF token guards session writes; this
 * also guards the forms that come before a session exists (sign-in, the magic link), where a
 * cross-site form could sign a victim into the attacker's account. Browsers send `Sec-Fetch-Site`
 * or `Origin` with every form post and a page cannot forge either; a client that sends neither is
 * no browser, and so no one's confused deputy.
 */
export function checkSameSite(request: Request, baseUrl: string): void {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) {
    if (site === 'same-origin' || site === 'none') return
  } else {
    const origin = request.headers.get('origin')
    if (origin === null) return
    const host = request.headers.get('host')
    if (
      origin === new URL(baseUrl).origin ||
      (host !== null && origin !== 'null' && URL.canParse(origin) && new URL(origin).host === host)
    )
      return
  }
  throw new AppError('VALIDATION_FAILED', {
    details: [{ field: 'origin', message: 'is another site: this form is accepted only from our own pages' }],
    context: { field: 'origin' },
  })
}
