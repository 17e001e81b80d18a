/** Saved profiles: a name and a config of only `org_number`, `action` and `payload`. */
import { Type } from '@sinclair/typebox'
import { Uuid } from './common.ts'
import { digitString } from './formats.ts'

/**
 * Spec (Saved profiles): "`config` allows only `org_number` (9 digits)". Nine digits are taken as
 * they are; one that fails the MOD-11 check is kept and named in the answer's `warnings`, since a
 * profile is a template and its owner may be saving a number to correct later.
 */
const ProfileOrgNumber = digitString(9, {
  description:
    'organisation number: nine digits; one that fails the MOD-11 check is kept, with a warning in the answer',
})

const ProfileWarning = Type.Object({
  field: Type.String(),
  code: Type.Literal('ORG_NUMBER_CHECK_DIGIT'),
  message_nb: Type.String(),
  message_en: Type.String(),
})

const Action = Type.Union([Type.Literal('mva_melding'), Type.Literal('a_melding')], {
  description: 'the action type the profile feeds to the execute route',
})

export const ProfileConfig = Type.Object(
  {
    org_number: Type.Optional(ProfileOrgNumber),
    action: Type.Optional(Action),
    payload: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'free-shape payload template, at most 64 KiB as UTF-8 JSON; no key-, token- or identity-number-shaped string anywhere in it, property names included',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'only these three members, each optional; never a key, a government token or an fnr',
  },
)

export const ProfileBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, description: '1 to 80 characters, not blank' }),
    config: Type.Optional(ProfileConfig),
  },
  { additionalProperties: false },
)

export const ProfileParams = Type.Object({ id: Uuid('the profile’s id') })

export const Profile = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  config: Type.Object(
    {
      org_number: Type.Optional(Type.String()),
      action: Type.Optional(Action),
      payload: Type.Optional(Type.Object({}, { additionalProperties: true })),
    },
    { additionalProperties: false },
  ),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  warnings: Type.Optional(
    Type.Array(ProfileWarning, {
      description:
        'what in the saved config will not pass where it is used (an org number failing MOD-11); absent when nothing',
    }),
  ),
})

export const ProfileList = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  max_profiles: Type.Integer({ description: 'how many profiles an account may keep' }),
  profiles: Type.Array(Profile, {
    description:
      'every profile of the account, most recently changed first; never more than `max_profiles`, so there are no pages',
  }),
})

export const DeletedProfile = Type.Object({ id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) })
