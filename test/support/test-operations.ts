/**
 * Operations that exist only in tests, registered through createApp's extension point: a metered
 * company-data-like read (until the company routes exist) and one that needs the professional tier.
 */
import { Type } from '@sinclair/typebox'
import { AppError } from '../../src/errors/app-error.ts'
import type { Extension } from '../../src/app.ts'
import { op } from '../../src/operations/index.ts'

export const METERED_PATH = '/api/v1/test/metered'
export const PROFESSIONAL_PATH = '/api/v1/test/professional'

/** Resolves a pending "slow" call when the test says so. */
export const gate = { release: () => {}, wait: Promise.resolve() as Promise<void> }
export function closeGate(): void {
  gate.wait = new Promise((resolve) => {
    gate.release = resolve
  })
}

export const testExtension: Extension = {
  operations: [
    op({
      id: 'testMetered',
      method: 'GET',
      path: METERED_PATH,
      category: 'B',
      format: 'envelope',
      tag: 'Test',
      summary: 'metered test read',
      scope: 'read:register',
      costOre: 50,
      request: {
        query: Type.Object(
          {
            outcome: Type.Optional(
              Type.Union([Type.Literal('ok'), Type.Literal('fail'), Type.Literal('crash'), Type.Literal('slow')]),
            ),
          },
          { additionalProperties: false },
        ),
      },
      response: Type.Object({ ok: Type.Boolean() }),
    }),
    op({
      id: 'testProfessional',
      method: 'GET',
      path: PROFESSIONAL_PATH,
      category: 'B',
      format: 'envelope',
      tag: 'Test',
      summary: 'professional-tier test read',
      scope: 'read:register',
      planMinimum: 'professional',
      response: Type.Object({ ok: Type.Boolean() }),
    }),
  ],
  handlers: {
    testMetered: async ({ query }) => {
      const outcome = (query as { outcome?: string }).outcome ?? 'ok'
      if (outcome === 'fail')
        throw new AppError('UPSTREAM_UNAVAILABLE', { context: { upstream_system: 'Enhetsregisteret' } })
      if (outcome === 'crash') throw new Error('unexpected')
      if (outcome === 'slow') await gate.wait
      return { data: { ok: true } }
    },
    testProfessional: () => ({ data: { ok: true } }),
  },
}
