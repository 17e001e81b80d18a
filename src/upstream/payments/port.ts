/**
 * Card checkout for an approved top-up. No provider is configured in this release: the browser
 * billing routes then answer 503 BILLING_NOT_CONFIGURED and the operator approves or credits.
 */
export interface PaymentProvider {
  startCheckout(
    topup: { id: string; amount_ore: number; consumer_id: string },
    returnUrl: string,
  ): Promise<{ redirect_url: string }>
}
