// Stable entry for webhook receivers: verify the Service-Signature header of a delivery.
export { verifyWebhookSignature, signatureHeader, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS } from './signing';
