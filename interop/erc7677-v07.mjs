// erc7677-v07.mjs sends UserOperations from a SimpleAccount of EntryPoint
// v0.7 (@account-abstraction/contracts 0.7.0, through viem's toSmartAccount
// with entryPoint07Abi), sponsored through our paymaster's ERC-7677 methods
// (pm_getPaymasterStubData, pm_getPaymasterData) by viem's paymaster
// client, for paymaster/erc7677_v07_interop_test.go. No v0.7 bundler is
// pinned here, so the script is its own: it sends handleOps from a funded
// key and reads the EntryPoint's UserOperationEvent.
//
//   node erc7677-v07.mjs <rpc> <paymaster> <apiKeyFile> <entryPoint> <factory> <ownerKeyFile> <bundlerKeyFile> <opsJSON> [contextsJSON]
//
// opsJSON is an array of operations, each an array of calls {to, data};
// contextsJSON, if given, the ERC-7677 context of each (default
// {"type": 0}; {"type": 1|2, "token": "0x…"} pays the gas in a token). It
// prints one JSON line: the account's address and, per operation, its
// userOpHash, transaction hash, success, actualGasCost, actualGasUsed and
// the paymaster fields viem got from the stub and from the final data.
import fs from 'node:fs';
import { createPublicClient, createWalletClient, decodeEventLog, defineChain, encodeFunctionData, http, keccak256, parseAbi, toHex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import {
  createPaymasterClient,
  entryPoint07Abi,
  getUserOperationHash,
  toPackedUserOperation,
  toSmartAccount,
} from 'viem/account-abstraction';

const [rpc, paymasterUrl, apiKeyFile, entryPoint, factory, ownerKeyFile, bundlerKeyFile, opsJSON, contextsJSON] = process.argv.slice(2);
const contexts = contextsJSON ? JSON.parse(contextsJSON) : [];
const apiKey = fs.readFileSync(apiKeyFile, 'utf8').trim();
const owner = privateKeyToAccount(fs.readFileSync(ownerKeyFile, 'utf8').trim());
const bundlerKey = privateKeyToAccount(fs.readFileSync(bundlerKeyFile, 'utf8').trim());

const probe = createPublicClient({ transport: http(rpc) });
const chain = defineChain({
  id: await probe.getChainId(),
  name: 'caddy-x402 devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [rpc] } },
});
const client = createPublicClient({ chain, transport: http(rpc) });
const wallet = createWalletClient({ account: bundlerKey, chain, transport: http(rpc) });

const factoryAbi = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function createAccount(address owner, uint256 salt) returns (address)',
]);
const accountAbi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
]);
const salt = 0n;
// A well-formed signature by a throwaway key: the account's ECDSA.recover
// does not revert on it, and validation returns SIG_VALIDATION_FAILED.
const stubSignature = await sign({ hash: keccak256(toHex('caddy-x402 interop v0.7 stub')), privateKey: keccak256(toHex('caddy-x402 interop stub signer')), to: 'hex' });

// SimpleAccount of @account-abstraction/contracts 0.7.0: the owner signs
// the v0.7 userOpHash as an Ethereum message.
const account = await toSmartAccount({
  client,
  entryPoint: { abi: entryPoint07Abi, address: entryPoint, version: '0.7' },
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
    return encodeFunctionData({
      abi: accountAbi,
      functionName: 'executeBatch',
      args: [calls.map((c) => c.to), calls.map((c) => c.value ?? 0n), calls.map((c) => c.data ?? '0x')],
    });
  },
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
      entryPointVersion: '0.7',
      userOperation: { ...userOperation, sender: userOperation.sender ?? (await this.getAddress()) },
    });
    return owner.signMessage({ message: { raw: hash } });
  },
});

// The paymaster client calls the ERC-7677 methods with the API key in the
// X-API-Key header.
const paymaster = createPaymasterClient({
  transport: http(paymasterUrl, { fetchOptions: { headers: { 'X-API-Key': apiKey } } }),
});

const out = { sender: account.address, ops: [] };
for (const [i, calls] of JSON.parse(opsJSON).entries()) {
  const deployed = (await client.getCode({ address: account.address })) !== undefined;
  const block = await client.getBlock();
  const tip = 1_000_000_000n;
  let op = {
    sender: account.address,
    nonce: await account.getNonce(),
    callData: await account.encodeCalls(calls),
    // No v0.7 bundler estimates here: limits that cover approve and
    // settle, and the account's creation, under the paymaster's bounds.
    callGasLimit: 200_000n,
    verificationGasLimit: deployed ? 100_000n : 450_000n,
    preVerificationGas: 55_000n,
    maxFeePerGas: block.baseFeePerGas * 2n + tip,
    maxPriorityFeePerGas: tip,
    signature: await account.getStubSignature(),
  };
  if (!deployed) Object.assign(op, await account.getFactoryArgs());
  const common = { chainId: chain.id, entryPointAddress: entryPoint, context: contexts[i] ?? { type: 0 } };
  const stub = await paymaster.getPaymasterStubData({ ...op, ...common });
  op = { ...op, ...stub };
  delete op.isFinal;
  delete op.sponsor;
  const data = await paymaster.getPaymasterData({ ...op, ...common });
  op = { ...op, ...data };
  delete op.sponsor;
  op.signature = await account.signUserOperation(op);
  const userOpHash = getUserOperationHash({ chainId: chain.id, entryPointAddress: entryPoint, entryPointVersion: '0.7', userOperation: op });
  const tx = await wallet.writeContract({
    address: entryPoint,
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(op)], bundlerKey.address],
    gas: 2_000_000n,
  });
  const receipt = await client.waitForTransactionReceipt({ hash: tx, pollingInterval: 100 });
  let event;
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== entryPoint.toLowerCase()) continue;
    try {
      const ev = decodeEventLog({ abi: entryPoint07Abi, data: log.data, topics: log.topics });
      if (ev.eventName === 'UserOperationEvent' && ev.args.userOpHash === userOpHash) event = ev.args;
    } catch {}
  }
  out.ops.push({
    userOpHash,
    transactionHash: tx,
    success: !!event?.success,
    actualGasCost: (event?.actualGasCost ?? 0n).toString(),
    actualGasUsed: (event?.actualGasUsed ?? 0n).toString(),
    stubPaymaster: stub.paymaster,
    stubIsFinal: stub.isFinal,
    paymaster: data.paymaster,
    paymasterVerificationGasLimit: (data.paymasterVerificationGasLimit ?? 0n).toString(),
    paymasterPostOpGasLimit: (data.paymasterPostOpGasLimit ?? 0n).toString(),
  });
}
console.log(JSON.stringify(out));
