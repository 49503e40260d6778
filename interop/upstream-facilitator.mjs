// upstream-facilitator.mjs serves upstream x402's own facilitator
// (@x402/core's x402Facilitator with @x402/evm's exact scheme, 2.27.0) on
// caddy-x402's dev chain, for bench/verify.sh to load its POST /verify with
// the same payments as ours. It answers /verify as upstream's example
// facilitator server does: the body's paymentPayload and
// paymentRequirements, verified, and the answer as JSON. Nothing is
// settled: the key it is given is only its signer's account.
//
//   RPC=http://127.0.0.1:18545 NETWORK=eip155:31337 KEY=0x… PORT=18549 node upstream-facilitator.mjs
import http from 'node:http';
import { x402Facilitator } from '@x402/core/facilitator';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { createWalletClient, defineChain, http as viemHTTP, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const network = env('NETWORK');
const chain = defineChain({
  id: Number(network.split(':')[1]),
  name: 'devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [env('RPC')] } },
});
const account = privateKeyToAccount(env('KEY'));
const wallet = createWalletClient({ account, chain, transport: viemHTTP(env('RPC')) }).extend(publicActions);
const facilitator = new x402Facilitator();
registerExactEvmScheme(facilitator, { signer: toFacilitatorEvmSigner({ ...wallet, address: account.address }), networks: network });

const answer = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};
http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/verify') {
    answer(res, 404, { error: 'not_found' });
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const { paymentPayload, paymentRequirements } = JSON.parse(Buffer.concat(chunks).toString());
      answer(res, 200, await facilitator.verify(paymentPayload, paymentRequirements));
    } catch (err) {
      answer(res, 500, { error: String(err) });
    }
  });
}).listen(Number(env('PORT')), '127.0.0.1', () => console.log('listening'));
