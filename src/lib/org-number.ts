/**
 * Norwegian organisation numbers: nine digits, the last a MOD-11 check digit over the first
 * eight with weights 3, 2, 7, 6, 5, 4, 3, 2 (remainder 0 → 0; a check value of 10 makes the number
 * invalid).
 */
const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2]

export function isOrgNumberShape(value: string): boolean {
  return /^\d{9}$/.test(value)
}

export function hasValidCheckDigit(value: string): boolean {
  if (!isOrgNumberShape(value)) return false
  let sum = 0
  for (let i = 0; i < 8; i++) sum += Number(value[i]) * WEIGHTS[i]!
  const check = 11 - (sum % 11)
  if (check === 10) return false
  return (check === 11 ? 0 : check) === Number(value[8])
}
