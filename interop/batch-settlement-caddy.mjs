// batch-settlement-caddy.mjs is an agent paying a Caddy route through a
// payment channel with upstream x402's own client: @x402/fetch with
// @x402/evm's batch-settlement client. It pays BASE+PATH COUNT times (one
// deposit, then vouchers), then, when RECOVER is set, pays once more with
// a fresh client that lost its channel state (it recovers it from the
// chain and the server's corrective 402), then, when REFUND is set, asks
// for a cooperative refund of the rest. It prints every answer in one
// JSON line.
//
//   BASE=http://127.0.0.1:8080 PATH_=/paid RPC=… NETWORK=eip155:31337 ASSET=0x… X402_KEY=0x… COUNT=3 RECOVER=1 REFUND=1 node batch-settlement-caddy.mjs
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
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
const url = env('BASE') + env('PATH_');
const payer = privateKeyToAccount(env('X402_KEY'));
const signer = toClientEvmSigner(payer, createPublicClient({ transport: http(env('RPC')) }));

// newClient is an agent's client with no channel state of its own.
const newClient = () => {
  const channel = new BatchSettlementEvmScheme(signer, { rpcUrl: env('RPC'), depositPolicy: { depositMultiplier: Number(process.env.DEPOSIT_MULTIPLIER || '10') } });
  const client = new x402Client().register(network, channel);
  client.setSpendControls({ allowedAssets: [{ network, asset: env('ASSET'), maxAmountPerPayment: '100000000' }] });
  return { channel, pay: wrapFetchWithPayment(fetch, client) };
};

const answer = async (res) => {
  const body = await res.text();
  const receipt = res.headers.get('PAYMENT-RESPONSE');
  return { status: res.status, body: body.slice(0, 300), response: receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString()) : null };
};

let agent = newClient();
const results = [];
for (let i = 0; i < Number(env('COUNT')); i++) {
  results.push(await answer(await agent.pay(url)));
}
let recovered = null;
if (process.env.RECOVER) {
  agent = newClient();
  recovered = await answer(await agent.pay(url));
}
let refund = null;
if (process.env.REFUND) {
  try {
    refund = await agent.channel.refund(url);
  } catch (e) {
    refund = { error: String(e && e.stack || e) };
  }
}
console.log(JSON.stringify({ results, recovered, refund }));
process.exit(0);
