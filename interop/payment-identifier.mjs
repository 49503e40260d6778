// payment-identifier.mjs drives a caddy-x402 paid route with upstream
// x402's @x402/fetch and the payment-identifier client of
// @x402/extensions: it pays once under a fixed payment identifier, presents
// the same signed payment again under it, then signs a new payment under
// the same identifier. It prints one JSON line: what each step got.
//
//   URL=http://127.0.0.1:8080/paid X402_KEY=0x… PAYMENT_ID=pay_… node payment-identifier.mjs
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  PAYMENT_IDENTIFIER,
  appendPaymentIdentifierToExtensions,
  isPaymentIdentifierExtension,
} from '@x402/extensions/payment-identifier';
import { privateKeyToAccount } from 'viem/accounts';

const url = process.env.URL;
const id = process.env.PAYMENT_ID;
const network = process.env.NETWORK ?? 'eip155:31337';
const asset = process.env.ASSET ?? '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';

const account = privateKeyToAccount(process.env.X402_KEY);
const client = new x402Client().register(network, new ExactEvmScheme(account));
client.setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: '50000' }] });
let declared = null;
client.onBeforePaymentCreation(async ({ paymentRequired }) => {
  paymentRequired.extensions ??= {};
  declared = paymentRequired.extensions[PAYMENT_IDENTIFIER] ?? null;
  if (!isPaymentIdentifierExtension(declared)) throw new Error('the 402 does not declare payment-identifier');
  declared = structuredClone(declared);
  appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
});

// The signed payments @x402/fetch sends, to present the first one again.
const sent = [];
const recording = async (input, init) => {
  const req = new Request(input, init);
  const sig = req.headers.get('PAYMENT-SIGNATURE');
  if (sig) sent.push(sig);
  return fetch(req);
};
const fetchWithPayment = wrapFetchWithPayment(recording, client);

async function result(res) {
  const header = res.headers.get('PAYMENT-RESPONSE');
  return {
    status: res.status,
    body: await res.text(),
    receipt: header ? decodePaymentResponseHeader(header) : null,
  };
}

const first = await result(await fetchWithPayment(url));
const payment = sent[0];
const sentId = JSON.parse(Buffer.from(payment, 'base64').toString()).extensions?.[PAYMENT_IDENTIFIER]?.info?.id ?? null;
// Presented again while the first request is still finishing (recording
// its result), the payment gets 503 and Retry-After: a client retries the
// same payment, as x402 asks of a 503.
let again;
let attempts = 0;
for (;;) {
  attempts++;
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
  if (res.status !== 503 || attempts >= 60) {
    again = await result(res);
    break;
  }
  await res.text();
  const wait = Number(res.headers.get('Retry-After') ?? '1');
  await new Promise((resolve) => setTimeout(resolve, wait * 1000));
}
const conflict = await result(await fetchWithPayment(url));
const secondSent = sent.length > 1 && sent[1] !== payment;
console.log(JSON.stringify({ declared, sentId, first, again, attempts, conflict, secondSent }));
