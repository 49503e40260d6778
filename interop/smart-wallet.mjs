// smart-wallet.mjs pays a caddy-x402 paid route with upstream x402's
// @x402/fetch and @x402/evm's exact client from a contract wallet: the
// client's signer is the wallet's address with its owner's signTypedData
// (what an ERC-1271 OwnerWallet accepts), and, while the wallet is not
// deployed, the signature is wrapped in ERC-6492 with viem's
// serializeErc6492Signature, as viem's smart accounts do. It prints one
// JSON line: the status, the body and the receipt.
//
//   URL=http://127.0.0.1:8080/paid OWNER_KEY=0x… WALLET=0x… [FACTORY=0x… FACTORY_DATA=0x…] node smart-wallet.mjs
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { serializeErc6492Signature } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const network = process.env.NETWORK ?? 'eip155:31337';
const asset = process.env.ASSET ?? '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const owner = privateKeyToAccount(process.env.OWNER_KEY);
const { FACTORY: factory, FACTORY_DATA: factoryData } = process.env;

const wallet = {
  address: process.env.WALLET,
  async signTypedData(typedData) {
    const signature = await owner.signTypedData(typedData);
    return factory ? serializeErc6492Signature({ address: factory, data: factoryData, signature }) : signature;
  },
};
const client = new x402Client().register(network, new ExactEvmScheme(wallet));
client.setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: '50000' }] });
const res = await wrapFetchWithPayment(fetch, client)(process.env.URL);
const body = await res.text();
const header = res.headers.get('PAYMENT-RESPONSE');
console.log(JSON.stringify({ status: res.status, body, receipt: header ? decodePaymentResponseHeader(header) : null }));
process.exit(res.ok ? 0 : 1);
