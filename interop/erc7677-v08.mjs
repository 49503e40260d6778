// erc7677-v08.mjs sends UserOperations from an EOA delegated by EIP-7702 to
// Simple7702Account on EntryPoint v0.8, through viem's
// toSimple7702SmartAccount, sponsored through our paymaster's ERC-7677
// methods (pm_getPaymasterStubData, pm_getPaymasterData) by viem's
// paymaster client, for paymaster/erc7677_v08_interop_test.go. No v0.8
// bundler is pinned here, so the script is its own: while the EOA is not
// delegated, an operation carries viem's 0x7702 factory marker and a fresh
// authorization (signAuthorization at the EOA's nonce), which it sends with
// handleOps in a set-code transaction (viem's authorizationList) from a
// funded key; later operations are plain ones of the delegated account. It
// reads the EntryPoint's UserOperationEvent.
//
//   node erc7677-v08.mjs <rpc> <paymaster> <apiKeyFile> <implementation> <ownerKeyFile> <bundlerKeyFile> <opsJSON>
//
// opsJSON is an array of operations, each an array of calls {to, data}. It
// prints one JSON line: the account's address and, per operation, its
// userOpHash, transaction hash, success, actualGasCost and the paymaster
// viem got from the stub and from the final data.
import fs from 'node:fs';
import { createPublicClient, createWalletClient, decodeEventLog, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  createPaymasterClient,
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationHash,
  toPackedUserOperation,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction';

const [rpc, paymasterUrl, apiKeyFile, implementation, ownerKeyFile, bundlerKeyFile, opsJSON] = process.argv.slice(2);
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
// The devnet's Simple7702Account is not at viem's default address.
const account = await toSimple7702SmartAccount({ client, owner, implementation });
const paymaster = createPaymasterClient({
  transport: http(paymasterUrl, { fetchOptions: { headers: { 'X-API-Key': apiKey } } }),
});

const out = { sender: account.address, ops: [] };
for (const calls of JSON.parse(opsJSON)) {
  // viem gives the 0x7702 factory marker while the EOA is not delegated
  // (then the operation carries a fresh authorization), and none after.
  const factoryArgs = await account.getFactoryArgs();
  const authorization = factoryArgs.factory
    ? await owner.signAuthorization({
        chainId: chain.id,
        address: implementation,
        nonce: await client.getTransactionCount({ address: owner.address, blockTag: 'pending' }),
      })
    : undefined;
  const block = await client.getBlock();
  const tip = 1_000_000_000n;
  let op = {
    sender: account.address,
    nonce: await account.getNonce(),
    callData: await account.encodeCalls(calls),
    ...factoryArgs,
    ...(authorization ? { authorization } : {}),
    // No v0.8 bundler estimates here: limits that cover approve and
    // settle under the paymaster's bounds.
    callGasLimit: 200_000n,
    verificationGasLimit: 150_000n,
    preVerificationGas: authorization ? 90_000n : 60_000n,
    maxFeePerGas: block.baseFeePerGas * 2n + tip,
    maxPriorityFeePerGas: tip,
    signature: await account.getStubSignature(),
  };
  const common = { chainId: chain.id, entryPointAddress: entryPoint08Address, context: { type: 0 } };
  const stub = await paymaster.getPaymasterStubData({ ...op, ...common });
  op = { ...op, ...stub };
  delete op.isFinal;
  delete op.sponsor;
  const data = await paymaster.getPaymasterData({ ...op, ...common });
  op = { ...op, ...data };
  delete op.sponsor;
  op.signature = await account.signUserOperation(op);
  const userOpHash = getUserOperationHash({ chainId: chain.id, entryPointAddress: entryPoint08Address, entryPointVersion: '0.8', userOperation: op });
  const tx = await wallet.writeContract({
    address: entryPoint08Address,
    abi: entryPoint08Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(op)], bundlerKey.address],
    ...(authorization ? { authorizationList: [authorization] } : {}),
    gas: 2_000_000n,
  });
  const receipt = await client.waitForTransactionReceipt({ hash: tx, pollingInterval: 100 });
  let event;
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== entryPoint08Address.toLowerCase()) continue;
    try {
      const ev = decodeEventLog({ abi: entryPoint08Abi, data: log.data, topics: log.topics });
      if (ev.eventName === 'UserOperationEvent' && ev.args.userOpHash === userOpHash) event = ev.args;
    } catch {}
  }
  out.ops.push({
    userOpHash,
    transactionHash: tx,
    success: !!event?.success,
    actualGasCost: (event?.actualGasCost ?? 0n).toString(),
    stubPaymaster: stub.paymaster,
    stubIsFinal: stub.isFinal,
    paymaster: data.paymaster,
  });
}
console.log(JSON.stringify(out));
