// compile.mjs builds caddy-x402's contracts with the pinned solc-js and writes
// combined.json, the input of `abigen --v2 --combined-json`.
//
// Our own sources are in src/. EntryPoint v0.6, SimpleAccountFactory (and the
// SimpleAccount it deploys) and VerifyingPaymaster come unchanged from
// @account-abstraction/contracts@0.6.0; their v0.7 counterparts (and
// EntryPointSimulations, which bundlers run through a state override) come
// unchanged from @account-abstraction/contracts@0.7.0, installed under the
// alias @account-abstraction/contracts-v07 with the OpenZeppelin 5.0 it
// imports under @openzeppelin/contracts-v5. abigen binds them in package
// ep07 (their struct types share names with v0.6's), except
// EntryPointSimulations, which only runs as an eth_call state override: its
// ABI and runtime code go to ep07/simulations.json. The output is
// deterministic: the same sources and settings give the same bytes, which
// CI checks.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(here, 'node_modules');

const compilerVersion = '0.8.37';
if (!solc.version().startsWith(compilerVersion + '+')) {
  console.error(`compile.mjs: want solc ${compilerVersion}, have ${solc.version()}; run npm ci in contracts/`);
  process.exit(1);
}

// The contracts that get Go bindings, by source unit and name, in two
// builds: ours and v0.6's, then v0.7's with OpenZeppelin 5 remapped (a
// build of its own, so that the remapping, which solc's metadata records,
// leaves the first build's bytes alone).
const wanted = [
  ['src/DevUSD.sol', 'DevUSD'],
  ['src/X402Settlement.sol', 'X402Settlement'],
  ['src/X402Batch.sol', 'X402Batch'],
  ['src/TokenPaymaster.sol', 'TokenPaymaster'],
  // Permit2's signature transfers, x402's Permit2 proxies (placed at their
  // canonical addresses by the devnet's genesis) and a token with EIP-2612
  // permit and no EIP-3009.
  ['src/Permit2.sol', 'Permit2'],
  ['src/X402ExactPermit2Proxy.sol', 'X402ExactPermit2Proxy'],
  ['src/X402UptoPermit2Proxy.sol', 'X402UptoPermit2Proxy'],
  ['src/DevPermitToken.sol', 'DevPermitToken'],
  // Smart-wallet payers of exact: the devnet's ERC-1271 wallet and its
  // CREATE2 factory, the EIP-7702 delegate of its EOAs, the stand-in for
  // Multicall3 (ERC-6492 deployment and payment in one transaction), and the
  // probe the facilitator runs in an eth_call (never deployed).
  ['src/OwnerWallet.sol', 'OwnerWallet'],
  ['src/OwnerWallet.sol', 'OwnerWalletFactory'],
  ['src/EOADelegate.sol', 'EOADelegate'],
  ['src/Multicall3.sol', 'Multicall3'],
  ['src/WalletProbe.sol', 'WalletProbe'],
  // The probe the paymaster runs in an eth_call (never deployed): does a
  // gas token deliver what it is asked to send?
  ['src/TransferProbe.sol', 'TransferProbe'],
  // Test only: the dishonest account of the facilitator's tests, and a
  // paymaster that sponsors several operations of one sender at once.
  ['src/FreeRiderAccount.sol', 'FreeRiderAccount'],
  ['src/OpenPaymaster.sol', 'OpenPaymaster'],
  // Test only: a Chainlink price feed the paymaster's tests set.
  ['src/SettablePriceFeed.sol', 'SettablePriceFeed'],
  // Test only: a token that keeps a fee on transfer, which the token
  // paymasters refuse.
  ['src/FeeToken.sol', 'FeeToken'],
  // Test only: the misbehaving wallet and factory of exact's attack tests.
  ['src/RogueWallet.sol', 'RogueWallet'],
  ['src/RogueWallet.sol', 'RogueFactory'],
  ['@account-abstraction/contracts/core/EntryPoint.sol', 'EntryPoint'],
  ['@account-abstraction/contracts/samples/SimpleAccountFactory.sol', 'SimpleAccountFactory'],
  ['@account-abstraction/contracts/samples/SimpleAccount.sol', 'SimpleAccount'],
  ['@account-abstraction/contracts/samples/VerifyingPaymaster.sol', 'VerifyingPaymaster'],
];
const wantedV07 = [
  ['@account-abstraction/contracts-v07/core/EntryPoint.sol', 'EntryPoint'],
  ['@account-abstraction/contracts-v07/samples/SimpleAccountFactory.sol', 'SimpleAccountFactory'],
  ['@account-abstraction/contracts-v07/samples/SimpleAccount.sol', 'SimpleAccount'],
  ['@account-abstraction/contracts-v07/samples/VerifyingPaymaster.sol', 'VerifyingPaymaster'],
  // Gas paid in an ERC-20 on v0.7 (OpenZeppelin 5, imported by its alias).
  ['src/TokenPaymasterV07.sol', 'TokenPaymasterV07'],
];
// x402's batch-settlement contracts (our own, from upstream's spec and
// ABI), with the OpenZeppelin 5 they import by its alias: a build of their
// own, written to batchsettle/combined.json and bound in package
// batchsettle, so that the builds above keep their bytes.
const wantedBatch = [
  ['src/X402BatchSettlement.sol', 'X402BatchSettlement'],
  ['src/BatchDepositCollectors.sol', 'ERC3009DepositCollector'],
  ['src/BatchDepositCollectors.sol', 'Permit2DepositCollector'],
];
// EntryPoint v0.7's simulations: compiled, not bound.
const simulations = ['@account-abstraction/contracts-v07/core/EntryPointSimulations.sol', 'EntryPointSimulations'];
// EntryPoint v0.8 (@account-abstraction/contracts@0.8.0 under the alias
// @account-abstraction/contracts-v08, with the OpenZeppelin 5.1 it imports
// under @openzeppelin/contracts-v51): a third build, bound in package ep08
// from a combined file of its own (ep08/combined.json), so that the other
// two bindings' --exc lists stay as they are. 0.8.0 ships no paymaster:
// VerifyingPaymasterV08 and TokenPaymasterV08 are ours.
const wantedV08 = [
  ['@account-abstraction/contracts-v08/core/EntryPoint.sol', 'EntryPoint'],
  ['@account-abstraction/contracts-v08/accounts/SimpleAccountFactory.sol', 'SimpleAccountFactory'],
  ['@account-abstraction/contracts-v08/accounts/SimpleAccount.sol', 'SimpleAccount'],
  ['@account-abstraction/contracts-v08/accounts/Simple7702Account.sol', 'Simple7702Account'],
  ['src/VerifyingPaymasterV08.sol', 'VerifyingPaymasterV08'],
  ['src/TokenPaymasterV08.sol', 'TokenPaymasterV08'],
];
const simulationsV08 = ['@account-abstraction/contracts-v08/core/EntryPointSimulations.sol', 'EntryPointSimulations'];

function read(unit) {
  const file = unit.startsWith('src/') ? path.join(here, unit) : path.join(modules, unit);
  return fs.readFileSync(file, 'utf8');
}

function findImports(unit) {
  try {
    return { contents: read(unit) };
  } catch (err) {
    return { error: `cannot read ${unit}: ${err.message}` };
  }
}

function build(units, remappings) {
  const sources = {};
  for (const [unit] of units) sources[unit] = { content: read(unit) };
  const settings = {
    // Cancun is the newest EVM that every chain we target runs; solc's
    // default (osaka) would emit opcodes older chains reject.
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 1000000 },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
  };
  if (remappings) settings.remappings = remappings;
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings }), { import: findImports }));
  let failed = false;
  for (const e of output.errors ?? []) {
    if (e.severity === 'error') {
      failed = true;
      console.error(e.formattedMessage);
    }
  }
  if (failed) process.exit(1);
  const out = {};
  for (const [unit, name] of units) {
    const c = output.contracts?.[unit]?.[name];
    if (!c) {
      console.error(`compile.mjs: ${unit}:${name} missing from solc output`);
      process.exit(1);
    }
    // abigen v2 names a function's multi-value output after the function
    // alone, so two contracts with validatePaymasterUserOp would clash. Only
    // the EntryPoint calls it; TokenPaymaster's binding leaves it out
    // (VerifyingPaymaster's keeps it); so do TokenPaymasterV07's and V08's.
    const abi = name === 'TokenPaymaster' || name === 'TokenPaymasterV07' || name === 'TokenPaymasterV08' ? c.abi.filter((f) => f.name !== 'validatePaymasterUserOp') : c.abi;
    out[`${unit}:${name}`] = {
      abi,
      bin: c.evm.bytecode.object,
      'bin-runtime': c.evm.deployedBytecode.object,
    };
  }
  return out;
}

const contracts = build(wanted);
const v07 = build([...wantedV07, simulations],
  ['@account-abstraction/contracts-v07/:@openzeppelin/contracts/=@openzeppelin/contracts-v5/']);
const simKey = simulations.join(':');
const sim = v07[simKey];
delete v07[simKey];
Object.assign(contracts, v07);
const combined = { contracts, version: solc.version() };
fs.writeFileSync(path.join(here, 'combined.json'), JSON.stringify(combined, null, 1) + '\n');

const batch = build(wantedBatch);
fs.writeFileSync(path.join(here, 'batchsettle', 'combined.json'),
  JSON.stringify({ contracts: batch, version: solc.version() }, null, 1) + '\n');
for (const key of Object.keys(batch)) {
  console.log(`${key}: ${batch[key]['bin-runtime'].length / 2} bytes runtime`);
}

fs.writeFileSync(path.join(here, 'ep07', 'simulations.json'),
  JSON.stringify({ abi: sim.abi, 'bin-runtime': sim['bin-runtime'] }, null, 1) + '\n');

const v08 = build([...wantedV08, simulationsV08],
  ['@account-abstraction/contracts-v08/:@openzeppelin/contracts/=@openzeppelin/contracts-v51/']);
const simKeyV08 = simulationsV08.join(':');
const simV08 = v08[simKeyV08];
delete v08[simKeyV08];
fs.writeFileSync(path.join(here, 'ep08', 'combined.json'), JSON.stringify({ contracts: v08, version: solc.version() }, null, 1) + '\n');
fs.writeFileSync(path.join(here, 'ep08', 'simulations.json'),
  JSON.stringify({ abi: simV08.abi, 'bin-runtime': simV08['bin-runtime'] }, null, 1) + '\n');

for (const key of Object.keys(contracts)) {
  console.log(`${key}: ${contracts[key]['bin-runtime'].length / 2} bytes runtime`);
}
for (const key of Object.keys(v08)) {
  console.log(`${key} (ep08): ${v08[key]['bin-runtime'].length / 2} bytes runtime`);
}
