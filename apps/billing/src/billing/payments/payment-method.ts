export const PAYMENT_METHODS = ['transfer', 'card', 'cash', 'check', 'other'] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];
