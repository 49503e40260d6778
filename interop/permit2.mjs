// permit2.mjs drives a caddy-x402 route priced in a token without EIP-3009
// with upstream x402's @x402/fetch and @x402/evm's exact client, which pays
// through Permit2 (assetTransferMethod "permit2"). The payer has not
// approved Permit2: the client reads its allowance and, as the 402 declares
// eip2612GasSponsoring, sends an EIP-2612 permit of Permit2 with the
// payment. It pays PAYS times and prints one JSON line: what each got, and
// whether its payment carried the permit.
//
//   URL=http://127.0.0.1:8080/paid RPC=http://127.0.0.1:8545 ASSET=0x… X402_KEY=0x… node permit2.mjs
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { toClientEvmSigner } from '@x402/evm';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const url = process.env.URL;
const network = process.env.NETWORK ?? 'eip155:31337';
const pays = Number(process.env.PAYS ?? '2');

const account = privateKeyToAccount(process.env.X402_KEY);
const publicClient = createPublicClient({ transport: http(process.env.RPC) });
const signer = toClientEvmSigner(account, publicClient);
const client = new x402Client().register(network, new ExactEvmScheme(signer));
client.setSpendControls({ allowedAssets: [{ network, asset: process.env.ASSET, maxAmountPerPayment: '50000' }] });

const sent = [];
const recording = async (input, init) => {
  const req = new Request(input, init);
  const sig = req.headers.get('PAYMENT-SIGNATURE');
  if (sig) sent.push(JSON.parse(Buffer.from(sig, 'base64').toString()));
  return fetch(req);
};
const fetchWithPayment = wrapFetchWithPayment(recording, client);

const results = [];
let declared = null;
for (let i = 0; i < pays; i++) {
  const before = sent.length;
  const res = await fetchWithPayment(url);
  const header = res.headers.get('PAYMENT-RESPONSE');
  const payment = sent[before] ?? null;
  results.push({
    status: res.status,
    body: await res.text(),
    receipt: header ? decodePaymentResponseHeader(header) : null,
    method: payment ? (payment.payload.permit2Authorization ? 'permit2' : 'eip3009') : null,
    permit: Boolean(payment?.extensions?.eip2612GasSponsoring?.info?.signature),
  });
}
const probe = await fetch(url);
const required = probe.headers.get('PAYMENT-REQUIRED');
if (required) {
  const pr = JSON.parse(Buffer.from(required, 'base64').toString());
  declared = Boolean(pr.extensions?.eip2612GasSponsoring);
}
console.log(JSON.stringify({ declared, results }));
