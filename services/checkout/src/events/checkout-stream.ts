/**
 * The checkout context's JetStream stream: every payment event, subject `checkout.payment.<type>`.
 * With a prefix (tests, shared servers), subjects become `<prefix>.checkout.…` and the stream
 * `<prefix>_CHECKOUT`.
 */
export function checkoutStream(prefix: string): { name: string; subjects: string[] } {
  return prefix === ''
    ? { name: 'CHECKOUT', subjects: ['checkout.>'] }
    : { name: `${prefix}_CHECKOUT`, subjects: [`${prefix}.checkout.>`] };
}
