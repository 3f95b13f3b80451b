import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import type { PaymentProvider } from './provider';

export const checkoutUrl = (appUrl: string, token: string) => `${appUrl}/checkout/${token}`;

/**
 * The offline provider (the default): the service's own checkout page at
 * {app_url}/checkout/<token>, whose "Pay (test mode)" button records the payment. No money moves.
 */
export function testProvider(config: Config): PaymentProvider {
  return {
    name: 'test',
    async createCheckout() {
      const token = `co_${randomBytes(24).toString('base64url')}`;
      return { url: checkoutUrl(config.appUrl, token), token, providerRef: null, testMode: true };
    },
  };
}
