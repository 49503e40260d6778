// agent.mjs is an agent paying many calls of an x402 route through one
// payment channel (the batch-settlement scheme), with upstream x402's
// @x402/fetch and @x402/evm's batch-settlement client: the first call
// deposits (one transaction, whose gas the server's facilitator pays), the
// next ones each send a signed voucher and no transaction at all.
//
//   npm ci && node agent.mjs http://localhost:8080/tools/search 20 [refund]
//
// By default it pays with test account #1 of the devnet's public test
// mnemonic, on the devnet (eip155:31337), in the devnet's dUSD, depositing
// what the offer's extra.minDeposit asks (ten calls' worth if it asks
// nothing) each time the channel runs out. With "refund" last, it then
// asks for what it did not spend back (a cooperative refund), or says
// there is nothing left when the calls spent every deposit to the last
// unit. Set X402_KEY, NETWORK, ASSET and RPC for anything else.
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { toClientEvmSigner } from '@x402/evm';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const url = process.argv[2] ?? 'http://localhost:8080/tools/search';
const calls = Number(process.argv[3] ?? '20');
const refund = process.argv[4] === 'refund';
// Test account #1: public, funded only on the devnet. Never use it elsewhere.
const key = process.env.X402_KEY ?? '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const network = process.env.NETWORK ?? 'eip155:31337';
const asset = process.env.ASSET ?? '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const rpc = process.env.RPC ?? 'http://127.0.0.1:8545';

const account = privateKeyToAccount(key);
// The client reads its channel from the chain when it has no state of its
// own (a restart), and keeps it in memory meanwhile.
const channel = new BatchSettlementEvmScheme(toClientEvmSigner(account, createPublicClient({ transport: http(rpc) })), {
  rpcUrl: rpc,
  depositPolicy: { depositMultiplier: 10 },
});
const client = new x402Client().register(network, channel);
// @x402/fetch pays only for tokens the payer allows, up to a limit a call.
client.setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: process.env.MAX_AMOUNT ?? '50000' }] });
const pay = wrapFetchWithPayment(fetch, client);

console.error(`payer ${account.address}`);
const lines = [];
for (let i = 1; i <= calls; i++) {
  const res = await pay(url);
  const body = await res.text();
  const header = res.headers.get('PAYMENT-RESPONSE');
  const receipt = header ? decodePaymentResponseHeader(header) : null;
  const state = receipt?.extra?.channelState;
  lines.push({ status: res.status, body, receipt });
  if (!res.ok) {
    // The server's refusal says why (a 402's in its JSON "error", a 429's
    // and a 503's in "message" or "error") and, with Retry-After, when.
    let why = body;
    try {
      const j = JSON.parse(body);
      why = j.error ?? j.message ?? j.invalidMessage ?? body;
    } catch {}
    const retry = res.headers.get('Retry-After');
    console.error(`call ${i}: ${res.status}: ${why}${retry ? ` (retry after ${retry} s)` : ''}`);
    break;
  }
  const how = receipt?.transaction ? `deposit of ${receipt.amount} in ${receipt.transaction}` : 'voucher, no transaction';
  console.error(`call ${i}: ${res.status}, ${how}, charged ${receipt?.extra?.chargedAmount}, ${state?.chargedCumulativeAmount} of ${state?.balance} in all`);
}
// What the channel holds and the calls did not spend, by the last answer.
const last = lines.at(-1)?.receipt?.extra?.channelState;
const left = last ? BigInt(last.balance) - BigInt(last.chargedCumulativeAmount) : null;
let refunded = null;
if (refund && lines.at(-1)?.status !== 200) {
  console.error('refund: not asked, as the last call failed');
} else if (refund && left === 0n) {
  // The calls spent every deposit to the last unit: there is nothing to
  // give back, and the client refuses to ask.
  console.error('refund: nothing to refund, the calls spent every deposit');
} else if (refund) {
  try {
    refunded = await channel.refund(url);
  } catch (err) {
    console.error(`refund failed: ${err.message}`);
    process.exit(1);
  }
  console.error(`refund: ${refunded.amount} back in ${refunded.transaction}`);
}
// One JSON line on stdout, for scripts and tests.
console.log(JSON.stringify({ calls: lines, refund: refunded }));
process.exit(lines.every((l) => l.status === 200) ? 0 : 1);
