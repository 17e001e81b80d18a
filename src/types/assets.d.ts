// Bun file imports (`with { type: 'file' }`) resolve to a path, embedded in the single binary.
declare module '*.wasm' {
  const path: string
  export default path
}
declare module '*.data' {
  const path: string
  export default path
}
declare module '*.css' {
  const path: string
  export default path
}
