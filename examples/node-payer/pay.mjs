// pay.mjs pays for an x402-protected URL with upstream x402's @x402/fetch.
//
//   npm ci && node pay.mjs http://localhost:8080/paid/report
//
// By default it pays with test account #1 of the devnet's public test
// mnemonic, on the devnet (eip155:31337), in the devnet's dUSD, at most
// 0.05 dUSD. Set X402_KEY, NETWORK, ASSET and MAX_AMOUNT (atomic units)
// for anything else.
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

const url = process.argv[2] ?? 'http://localhost:8080/paid/report';
// Test account #1: public, funded only on the devnet. Never use it elsewhere.
const key = process.env.X402_KEY ?? '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const network = process.env.NETWORK ?? 'eip155:31337';
const asset = process.env.ASSET ?? '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const maxAmount = process.env.MAX_AMOUNT ?? '50000';

const account = privateKeyToAccount(key);
const client = new x402Client().register(network, new ExactEvmScheme(account));
// @x402/fetch pays only for tokens the payer allows, up to a limit.
client.setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: maxAmount }] });
const fetchWithPayment = wrapFetchWithPayment(fetch, client);

console.error(`payer ${account.address}\nGET ${url}`);
const res = await fetchWithPayment(url);
const body = await res.text();
console.error(`${res.status} ${res.statusText}\n${body}`);
const header = res.headers.get('PAYMENT-RESPONSE');
const receipt = header ? decodePaymentResponseHeader(header) : null;
if (receipt) console.error(`transaction ${receipt.transaction}`);
// One JSON line on stdout, for scripts and tests.
console.log(JSON.stringify({ status: res.status, body, receipt }));
process.exit(res.ok ? 0 : 1);
