// batch-settlement.mjs signs a batch-settlement payment with upstream
// x402's @x402/evm client (BatchSettlementEvmScheme) for the offer in
// OFFER, a PaymentRequirements in JSON, and prints the payment payload in
// one JSON line. The client keeps no state between runs: it finds the
// payer's channel on the chain (the settlement contract at its canonical
// address), so a first run deposits and a run after the deposit was mined
// signs a voucher.
//
//   OFFER='{"scheme":"batch-settlement",…}' RPC=http://127.0.0.1:8545 X402_KEY=0x… node batch-settlement.mjs
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { toClientEvmSigner } from '@x402/evm';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const account = privateKeyToAccount(process.env.X402_KEY);
const publicClient = createPublicClient({ transport: http(process.env.RPC) });
const signer = toClientEvmSigner(account, publicClient);
const scheme = new BatchSettlementEvmScheme(signer, { rpcUrl: process.env.RPC });
const offer = JSON.parse(process.env.OFFER);
const result = await scheme.createPaymentPayload(2, offer);
console.log(JSON.stringify(result));
