// bundler.mjs runs a real ERC-4337 v0.6 bundler (@metamask/test-bundler,
// a fork of eth-infinitism's) against a chain, for the external-bundler
// interop test (facilitator/bundler_interop_test.go).
//
//   node bundler.mjs <rpc> <entryPoint> <port> <beneficiary> <mnemonicFile> <configFile>
//
// It prints READY once it serves ERC-7769 at http://127.0.0.1:<port>/rpc and
// stops on SIGTERM. Unsafe mode: the devnet has no debug_traceCall tracer
// the full ERC-7562 validation needs.
import fs from 'node:fs';
import { startBundler } from '@metamask/test-bundler';

const [rpc, entryPoint, port, beneficiary, mnemonic, configFile] = process.argv.slice(2);
fs.writeFileSync(configFile, JSON.stringify({
  autoBundleInterval: 1, autoBundleMempoolSize: 10, beneficiary, entryPoint,
  maxBundleGas: 10e6, minBalance: '0', mnemonic, network: rpc, port: String(port),
}));
const server = await startBundler({ configFile, unsafe: true });
console.log('READY');
const stop = async () => { await server.stop(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
