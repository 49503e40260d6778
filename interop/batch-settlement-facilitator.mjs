// batch-settlement-facilitator.mjs runs upstream x402's own batch-settlement
// client and facilitator (@x402/evm 2.27.0) against the contracts on
// caddy-x402's dev chain. The client signs a deposit for the offer in
// OFFER, and the facilitator verifies and sends it. The client then signs a
// voucher, which the facilitator verifies. The facilitator claims the
// voucher, signing the ClaimBatch with the receiver authorizer's key, and
// sweeps what was claimed to the receiver. It prints every answer in one
// JSON line and exits non-zero on the first that fails.
//
//   OFFER='{…}' RPC=http://127.0.0.1:8545 PAYER_KEY=0x… FACILITATOR_KEY=0x… AUTHORIZER_KEY=0x… node batch-settlement-facilitator.mjs
import { BatchSettlementEvmScheme as Client } from '@x402/evm/batch-settlement/client';
import { BatchSettlementEvmScheme as Facilitator } from '@x402/evm/batch-settlement/facilitator';
import { toClientEvmSigner, toFacilitatorEvmSigner } from '@x402/evm';
import { createPublicClient, createWalletClient, defineChain, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const offer = JSON.parse(process.env.OFFER);
const chain = defineChain({
  id: Number(offer.network.split(':')[1]),
  name: 'devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [process.env.RPC] } },
});
const transport = http(process.env.RPC);
const payer = privateKeyToAccount(process.env.PAYER_KEY);
const client = new Client(toClientEvmSigner(payer, createPublicClient({ chain, transport })), { rpcUrl: process.env.RPC });
const sender = privateKeyToAccount(process.env.FACILITATOR_KEY);
const wallet = createWalletClient({ account: sender, chain, transport }).extend(publicActions);
const facilitator = new Facilitator(
  toFacilitatorEvmSigner({ ...wallet, address: sender.address }),
  privateKeyToAccount(process.env.AUTHORIZER_KEY),
);

const out = {};
function check(ok, what, detail) {
  if (!ok) {
    console.log(JSON.stringify(out));
    console.error(`interop: ${what}: ${JSON.stringify(detail, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
    process.exit(1);
  }
}
const payment = (payload) => ({ x402Version: 2, accepted: offer, payload });

const deposit = await client.createPaymentPayload(2, offer);
check(deposit.payload.type === 'deposit', 'the first payment', deposit.payload);
out.depositVerify = await facilitator.verify(payment(deposit.payload), offer);
check(out.depositVerify.isValid, 'verifying the deposit', out.depositVerify);
out.depositSettle = await facilitator.settle(payment(deposit.payload), offer);
check(out.depositSettle.success, 'settling the deposit', out.depositSettle);

// A new client, with no memory of the deposit, finds the channel on chain.
const again = new Client(toClientEvmSigner(payer, createPublicClient({ chain, transport })), { rpcUrl: process.env.RPC });
const voucher = await again.createPaymentPayload(2, offer);
check(voucher.payload.type === 'voucher', 'the second payment', voucher.payload);
out.voucherVerify = await facilitator.verify(payment(voucher.payload), offer);
check(out.voucherVerify.isValid, 'verifying the voucher', out.voucherVerify);

const v = voucher.payload.voucher;
const claim = {
  type: 'claim',
  claims: [{
    voucher: { channel: voucher.payload.channelConfig, maxClaimableAmount: v.maxClaimableAmount },
    signature: v.signature,
    totalClaimed: v.maxClaimableAmount,
  }],
};
out.claim = await facilitator.settle(payment(claim), offer);
check(out.claim.success, 'claiming the voucher', out.claim);
out.sweep = await facilitator.settle(payment({ type: 'settle', receiver: offer.payTo, token: offer.asset }), offer);
check(out.sweep.success, 'sweeping the claim', out.sweep);
out.channelId = v.channelId;
out.claimed = v.maxClaimableAmount;
console.log(JSON.stringify(out));
