/** Portfolios: an accounting firm's clients, their merged deadlines and their states. */
import { Type } from '@sinclair/typebox'
import { Uuid } from './common.ts'

const Name = Type.String({
  minLength: 1,
  maxLength: 80,
  description: '1 to 80 characters, not blank',
  examples: ['Klienter Bergen'],
})

export const PortfolioBody = Type.Object({ name: Name }, { additionalProperties: false })

export const PortfolioParams = Type.Object({
  id: Uuid('the portfolio’s id (`portfolio_id`)'),
})

export const CompaniesBody = Type.Object(
  {
    org_numbers: Type.Array(
      Type.String({ maxLength: 32, description: 'nine digits with a valid MOD-11 check digit' }),
      {
        maxItems: 2000,
        description:
          'the whole new list (it replaces the old one); duplicates collapse, at most 1 000 distinct numbers; a sub-unit’s number stands for its legal entity',
        examples: [['984661185', '923609016']],
      },
    ),
  },
  { additionalProperties: false },
)

const SubUnitNote = Type.Object(
  { note_nb: Type.String(), note_en: Type.String() },
  { description: 'how a sub-unit’s number is read: it stands for its legal entity' },
)

export const Portfolio = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  company_count: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})

export const PortfolioDetail = Type.Object({
  ...Portfolio.properties,
  companies: Type.Array(Type.Object({ org_number: Type.String(), added_at: Type.String({ format: 'date-time' }) }), {
    description: 'the organisation numbers as given, ascending',
  }),
  sub_units: SubUnitNote,
})

export const PortfolioList = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  max_portfolios: Type.Integer({ description: 'how many portfolios an account may keep' }),
  max_companies: Type.Integer({ description: 'how many distinct organisation numbers a portfolio may hold' }),
  portfolios: Type.Array(Portfolio, { description: 'every portfolio of the account, oldest first; never paged' }),
})

export const CompaniesSet = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  company_count: Type.Integer({ minimum: 0 }),
  duplicates_removed: Type.Integer({ minimum: 0, description: 'how many numbers of the list were repeats' }),
  org_numbers: Type.Array(Type.String(), { description: 'the portfolio’s numbers now, distinct, ascending' }),
  sub_units: SubUnitNote,
})

export const DeletedPortfolio = Type.Object({
  portfolio_id: Type.String({ format: 'uuid' }),
  deleted: Type.Literal(true),
})
