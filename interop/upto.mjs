// upto.mjs pays caddy-x402 routes of the upto scheme with upstream x402's
// @x402/fetch and @x402/evm's upto client: it signs, through Permit2, a
// transfer of at most each route's price for the facilitator the offer
// names, and is charged what the response used. The payer has not
// approved Permit2: the client sends an EIP-2612 permit of Permit2
// (eip2612GasSponsoring) with each payment. For each of PATHS it prints
// what it got, in one JSON line.
//
//   BASE=http://127.0.0.1:8080 PATHS=/a,/b RPC=http://127.0.0.1:8545 ASSET=0x… X402_KEY=0x… node upto.mjs
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { toClientEvmSigner } from '@x402/evm';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const network = process.env.NETWORK ?? 'eip155:31337';
const account = privateKeyToAccount(process.env.X402_KEY);
const signer = toClientEvmSigner(account, createPublicClient({ transport: http(process.env.RPC) }));
const client = new x402Client().register(network, new UptoEvmScheme(signer));
client.setSpendControls({ allowedAssets: [{ network, asset: process.env.ASSET, maxAmountPerPayment: '100000' }] });

const sent = [];
const recording = async (input, init) => {
  const req = new Request(input, init);
  const sig = req.headers.get('PAYMENT-SIGNATURE');
  if (sig) sent.push(JSON.parse(Buffer.from(sig, 'base64').toString()));
  return fetch(req);
};
const fetchWithPayment = wrapFetchWithPayment(recording, client);

const results = [];
for (const path of process.env.PATHS.split(',')) {
  const before = sent.length;
  const res = await fetchWithPayment(process.env.BASE + path);
  const body = await res.text();
  const payment = sent[before] ?? null;
  const headers = {};
  res.headers.forEach((v, k) => { headers[k] = v; });
  results.push({
    path,
    status: res.status,
    bytes: Buffer.byteLength(body),
    headers,
    scheme: payment?.accepted?.scheme ?? null,
    max: payment?.payload?.permit2Authorization?.permitted?.amount ?? null,
    facilitator: payment?.payload?.permit2Authorization?.witness?.facilitator ?? null,
    permit: Boolean(payment?.extensions?.eip2612GasSponsoring?.info?.signature),
  });
}
console.log(JSON.stringify({ results }));
