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
// Text imports (`with { type: 'text' }`): the file's content, embedded in the binary.
declare module '*.md' {
  const text: string
  export default text
}
