import { allOperations as operations, type HttpMethod, type Operation } from '../operations.ts'

interface Compiled {
  op: Operation
  re: RegExp
}

const compiled: Compiled[] = operations.map((op) => ({
  op,
  re: new RegExp(`^${op.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]+)/g, '[^/]+')}$`),
}))

/** The operations whose path template matches, whatever their method. */
export function operationsForPath(pathname: string): Operation[] {
  return compiled.filter((c) => c.re.test(pathname)).map((c) => c.op)
}

export function allowedMethods(pathname: string): HttpMethod[] {
  return [...new Set(operationsForPath(pathname).map((o) => o.method))]
}
