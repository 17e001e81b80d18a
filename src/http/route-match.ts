import { allOperations as operations, type HttpMethod, type Operation } from '../operations/index.ts'

interface Compiled {
  op: Operation
  re: RegExp
}

const compiled: Compiled[] = operations.map((op) => ({
  op,
  re: new RegExp(`^${op.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]+)/g, '[^/]+')}$`),
}))

/** The methods of the operations whose path template matches: for 405 and its Allow header. */
export function allowedMethods(pathname: string): HttpMethod[] {
  return [...new Set(compiled.filter((c) => c.re.test(pathname)).map((c) => c.op.method))]
}
