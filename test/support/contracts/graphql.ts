/**
 * NAV Aa-registeret's GraphQL schema (contracts/nav-aareg/) as the judge of a query and its answer:
 * graphql-js executes the query against the schema over the answer's data, checking every type and
 * non-null field.
 */
import { buildSchema, execute, parse, type GraphQLSchema } from 'graphql'
import { contractText } from './xsd.ts'

export async function aaregSchema(): Promise<GraphQLSchema> {
  return buildSchema(await contractText('nav-aareg/aareg-dist-api-v1.graphqls'))
}

/**
 * The answer the schema lets the register give to this query over these data; errors if it cannot.
 * An answer carries no `__typename` unless asked, so the employment details' concrete type is read
 * from their `type` (`Ordinaer` → `OrdinaerAnsettelsesdetaljer`, as the register names them).
 */
export function asTheSchemaAnswers(
  schema: GraphQLSchema,
  query: string,
  variables: Record<string, unknown>,
  data: Record<string, unknown>,
) {
  const typeResolver = (value: unknown) =>
    value && typeof value === 'object' && 'type' in value ? `${String(value.type)}Ansettelsesdetaljer` : undefined
  return execute({ schema, document: parse(query), variableValues: variables, rootValue: data, typeResolver })
}
