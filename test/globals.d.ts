// Tests read response bodies whose shape each assertion states; `any` keeps them readable.
declare global {
  interface Response {
    json(): Promise<any>
  }
}
export {}
