// batch-settlement-express.mjs is upstream x402's batch-settlement server
// (@x402/express's paymentMiddleware with @x402/evm's batch-settlement
// server scheme, which owns the receiver authorizer's key) in front of a
// caddy-x402 facilitator, paid by upstream's batch-settlement client
// through @x402/fetch. It charges for GET /paid, pays it COUNT times (a
// deposit, then vouchers), asks for a cooperative refund of the rest, and
// prints each answer in one JSON line.
//
//   FACILITATOR_URL=… SETTLE_KEY=… NETWORK=eip155:31337 RPC=… ASSET=0x… TOKEN_NAME=… TOKEN_VERSION=… PAY_TO=0x… AMOUNT=100 AUTHORIZER_KEY=0x… X402_KEY=0x… COUNT=3 node batch-settlement-express.mjs
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { BatchSettlementEvmScheme as ServerScheme } from '@x402/evm/batch-settlement/server';
import { BatchSettlementEvmScheme as ClientScheme } from '@x402/evm/batch-settlement/client';
import { toClientEvmSigner } from '@x402/evm';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const network = env('NETWORK');

let settles = 0;
const facilitator = new HTTPFacilitatorClient({
  url: env('FACILITATOR_URL'),
  timeoutMs: 60_000,
  createAuthHeaders: async () => ({
    verify: {}, supported: {},
    settle: { Authorization: `Bearer ${env('SETTLE_KEY')}`, 'Idempotency-Key': `bs-express-${process.pid}-${++settles}` },
  }),
});
const scheme = new ServerScheme(env('PAY_TO'), {
  receiverAuthorizerSigner: privateKeyToAccount(env('AUTHORIZER_KEY')),
  withdrawDelay: 900,
});
const server = new x402ResourceServer(facilitator).register(network, scheme);

const app = express();
app.use(paymentMiddleware({
  'GET /paid': {
    accepts: {
      scheme: 'batch-settlement',
      network,
      payTo: env('PAY_TO'),
      price: { amount: env('AMOUNT'), asset: env('ASSET'), extra: { name: env('TOKEN_NAME'), version: env('TOKEN_VERSION') } },
      maxTimeoutSeconds: 60,
    },
    description: 'interop: a report paid through a payment channel',
    mimeType: 'application/json',
  },
}, server));
app.get('/paid', (req, res) => res.json({ report: 'paid through a payment channel' }));

const listener = await new Promise((resolve) => {
  const l = app.listen(0, '127.0.0.1', () => resolve(l));
});
const base = `http://127.0.0.1:${listener.address().port}`;

const payer = privateKeyToAccount(env('X402_KEY'));
const signer = toClientEvmSigner(payer, createPublicClient({ transport: http(env('RPC')) }));
const channel = new ClientScheme(signer, { rpcUrl: env('RPC') });
const client = new x402Client().register(network, channel);
client.setSpendControls({ allowedAssets: [{ network, asset: env('ASSET'), maxAmountPerPayment: '1000000' }] });
const pay = wrapFetchWithPayment(fetch, client);

const results = [];
for (let i = 0; i < Number(env('COUNT')); i++) {
  const res = await pay(`${base}/paid`);
  const body = await res.text();
  const receipt = res.headers.get('PAYMENT-RESPONSE');
  results.push({
    status: res.status,
    body: body.slice(0, 200),
    response: receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString()) : null,
  });
}
// Then the payer asks for the rest back: a cooperative refund, which the
// server completes with its claim and signatures and has the facilitator
// send.
const refund = await channel.refund(`${base}/paid`);
console.log(JSON.stringify({ results, refund }));
listener.close();
process.exit(0);
