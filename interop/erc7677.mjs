// erc7677.mjs sends UserOperations from a SimpleAccount (EntryPoint v0.6)
// with viem's bundler client, sponsored through our paymaster's ERC-7677
// methods (pm_getPaymasterStubData, pm_getPaymasterData) by viem's
// paymaster client, for paymaster/erc7677_interop_test.go.
//
//   node erc7677.mjs <rpc> <bundler> <paymaster> <apiKeyFile> <entryPoint> <factory> <ownerKeyFile> <opsJSON>
//
// opsJSON is an array of operations, each an array of calls {to, data}; the
// operations are sent one after the other. It prints one JSON line: the
// account's address and, per operation, its userOpHash, transaction hash,
// success, actualGasCost and actualGasUsed.
import fs from 'node:fs';
import { createPublicClient, defineChain, encodeFunctionData, http, keccak256, parseAbi, toHex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint06Abi,
  formatUserOperationGas,
  formatUserOperationRequest,
  getUserOperationHash,
  toSmartAccount,
} from 'viem/account-abstraction';

const [rpc, bundlerUrl, paymasterUrl, apiKeyFile, entryPoint, factory, ownerKeyFile, opsJSON] = process.argv.slice(2);
const apiKey = fs.readFileSync(apiKeyFile, 'utf8').trim();
const owner = privateKeyToAccount(fs.readFileSync(ownerKeyFile, 'utf8').trim());

const probe = createPublicClient({ transport: http(rpc) });
const chain = defineChain({
  id: await probe.getChainId(),
  name: 'caddy-x402 devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [rpc] } },
});
const client = createPublicClient({ chain, transport: http(rpc) });

const factoryAbi = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function createAccount(address owner, uint256 salt) returns (address)',
]);
const accountAbi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
]);
const salt = 0n;
const stubSignature = await (async () => {
  const throwaway = keccak256(toHex('caddy-x402 interop stub signer'));
  for (let i = 0; ; i++) {
    const sig = await sign({ hash: keccak256(toHex(i)), privateKey: throwaway, to: 'hex' });
    if (!/^0x(?:[0-9a-f]{2})*?00/.test(sig) && sig.length === 132) return sig;
  }
})();
let bundler; // the bundler client, made below once the account exists

// SimpleAccount of @account-abstraction/contracts 0.6.0, which viem does
// not ship: the owner signs the v0.6 userOpHash as an Ethereum message.
const account = await toSmartAccount({
  client,
  entryPoint: { abi: entryPoint06Abi, address: entryPoint, version: '0.6' },
  async getAddress() {
    return client.readContract({ address: factory, abi: factoryAbi, functionName: 'getAddress', args: [owner.address, salt] });
  },
  async getFactoryArgs() {
    return { factory, factoryData: encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [owner.address, salt] }) };
  },
  async getNonce() {
    return client.readContract({
      address: entryPoint,
      abi: parseAbi(['function getNonce(address sender, uint192 key) view returns (uint256)']),
      functionName: 'getNonce',
      args: [await this.getAddress(), 0n],
    });
  },
  async encodeCalls(calls) {
    if (calls.length === 1) {
      const [c] = calls;
      return encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [c.to, c.value ?? 0n, c.data ?? '0x'] });
    }
    if (calls.some((c) => c.value)) throw new Error('SimpleAccount v0.6 executeBatch sends no value');
    return encodeFunctionData({ abi: accountAbi, functionName: 'executeBatch', args: [calls.map((c) => c.to), calls.map((c) => c.data ?? '0x')] });
  },
  // A well-formed signature by a throwaway key: the account's
  // ECDSA.recover does not revert on it, and validation returns
  // SIG_VALIDATION_FAILED. It has no zero byte, so the bundler's
  // preVerificationGas, priced on the calldata, covers the real signature
  // (viem's usual stub, 0xfff…0000…7aaa…1c, has 16 zero bytes and falls
  // short).
  async getStubSignature() {
    return stubSignature;
  },
  async signMessage({ message }) {
    return owner.signMessage({ message });
  },
  async signTypedData(typedData) {
    return owner.signTypedData(typedData);
  },
  async signUserOperation({ chainId = chain.id, ...userOperation }) {
    const hash = getUserOperationHash({
      chainId,
      entryPointAddress: entryPoint,
      entryPointVersion: '0.6',
      userOperation: { ...userOperation, sender: userOperation.sender ?? (await this.getAddress()) },
    });
    return owner.signMessage({ message: { raw: hash } });
  },
  userOperation: {
    // eth-infinitism's v0.6 bundler simulates validation under the
    // verificationGasLimit it is sent, and viem sends 0x0 for it; and it
    // prices preVerificationGas on the operation as sent, where a 0x0 gas
    // field is cheaper calldata than the final one. So estimate with the
    // three limits at 1,000,000 (0x0f4240: three non-zero bytes, as many as
    // any final value below 2^24 has at most), and take the three from the
    // bundler's answer (verificationGasLimit is the validation's gas as
    // simulated, with the paymaster's stub in place).
    async estimateGas(userOperation) {
      const gas = formatUserOperationGas(await bundler.request({
        method: 'eth_estimateUserOperationGas',
        params: [formatUserOperationRequest({ ...userOperation, callGasLimit: 1_000_000n, preVerificationGas: 1_000_000n, verificationGasLimit: 1_000_000n }), entryPoint],
      }));
      // The EntryPoint's preOpGas, which the bundler answers as
      // verificationGasLimit, counts the preVerificationGas sent.
      return { callGasLimit: gas.callGasLimit, preVerificationGas: gas.preVerificationGas, verificationGasLimit: gas.verificationGasLimit - 1_000_000n };
    },
  },
});

// The paymaster client calls the ERC-7677 methods with the API key in the
// X-API-Key header.
const paymaster = createPaymasterClient({
  transport: http(paymasterUrl, { fetchOptions: { headers: { 'X-API-Key': apiKey } } }),
});
bundler = createBundlerClient({ account, client, transport: http(bundlerUrl), paymaster });

const out = { sender: account.address, ops: [] };
for (const calls of JSON.parse(opsJSON)) {
  const hash = await bundler.sendUserOperation({ calls });
  const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
  out.ops.push({
    userOpHash: hash,
    transactionHash: receipt.receipt.transactionHash,
    success: receipt.success,
    actualGasCost: receipt.actualGasCost.toString(),
    actualGasUsed: receipt.actualGasUsed.toString(),
  });
}
console.log(JSON.stringify(out));
