// sign-in-with-x.mjs drives a caddy-x402 route that sells access windows
// with upstream x402's @x402/fetch and the sign-in-with-x client of
// @x402/extensions: the first request pays (its sign-in is refused, since
// no window is open yet), then each of ROUNDS more requests is answered
// within the window after the client signs the fresh challenge of its 402,
// without paying. Last, the sign-in proof of the final round is sent again
// as it is, which must be refused (its nonce is spent). It prints one JSON
// line: what each step got, every request the client sent, and how long
// each round took.
//
//   URL=http://127.0.0.1:8080/window/report X402_KEY=0x… ROUNDS=10 node sign-in-with-x.mjs
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createSIWxClientExtension, SIGN_IN_WITH_X } from '@x402/extensions/sign-in-with-x';
import { privateKeyToAccount } from 'viem/accounts';

const url = process.env.URL;
const rounds = Number(process.env.ROUNDS ?? '5');
const network = process.env.NETWORK ?? 'eip155:31337';
const asset = process.env.ASSET ?? '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';

const account = privateKeyToAccount(process.env.X402_KEY);
const client = new x402Client()
  .register(network, new ExactEvmScheme(account))
  .registerExtension(createSIWxClientExtension({ signers: [account] }));
client.setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: '50000' }] });

// Every request @x402/fetch sends, and what it got.
const sent = [];
const recording = async (input, init) => {
  const req = new Request(input, init);
  const res = await fetch(req);
  const required = res.headers.get('PAYMENT-REQUIRED');
  sent.push({
    signIn: req.headers.get(SIGN_IN_WITH_X),
    paid: req.headers.has('PAYMENT-SIGNATURE'),
    status: res.status,
    error: required ? decodePaymentRequiredHeader(required).error ?? '' : '',
  });
  return res;
};
const fetchWithPayment = wrapFetchWithPayment(recording, client);

async function result(res) {
  const header = res.headers.get('PAYMENT-RESPONSE');
  return { status: res.status, body: await res.text(), receipt: header ? decodePaymentResponseHeader(header) : null };
}

const first = await result(await fetchWithPayment(url));
const later = [];
const millis = [];
for (let i = 0; i < rounds; i++) {
  const began = performance.now();
  const r = await result(await fetchWithPayment(url));
  millis.push(performance.now() - began);
  later.push(r);
}
const lastProof = [...sent].reverse().find((s) => s.signIn)?.signIn ?? null;
let replay = null;
if (lastProof) {
  const res = await fetch(url, { headers: { [SIGN_IN_WITH_X]: lastProof } });
  const required = res.headers.get('PAYMENT-REQUIRED');
  replay = { status: res.status, error: required ? decodePaymentRequiredHeader(required).error ?? '' : '' };
  await res.text();
}
const proof = lastProof ? JSON.parse(Buffer.from(lastProof, 'base64').toString()) : null;
console.log(JSON.stringify({
  first, later, replay, proof,
  requests: sent.map(({ paid, status, error, signIn }) => ({ paid, status, error, signIn: !!signIn })),
  millis,
}));
