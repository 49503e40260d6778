// mcp-client.mjs is an agent that pays a caddy-x402 MCP route: the official
// TypeScript MCP SDK's client (@modelcontextprotocol/sdk) calls a priced
// tool, reads the PaymentRequired of the payment-required result (from
// structuredContent, else content[0].text, as x402's MCP transport says),
// pays it with upstream x402's client (@x402/core with @x402/evm's exact
// scheme), and calls again with the PaymentPayload in
// _meta["x402/payment"]. It prints one JSON line: the tools listed, the
// challenge, and the paid result with its _meta["x402/payment-response"].
//
//   URL=http://127.0.0.1:8080/mcp TRANSPORT=streamable|sse TOOL=search RPC=… ASSET=0x… X402_KEY=0x… node mcp-client.mjs
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { toClientEvmSigner } from '@x402/evm';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const network = process.env.NETWORK ?? 'eip155:31337';
const tool = process.env.TOOL ?? 'search';
const account = privateKeyToAccount(process.env.X402_KEY);
const signer = toClientEvmSigner(account, createPublicClient({ transport: http(process.env.RPC) }));
const payer = new x402Client().register(network, new ExactEvmScheme(signer));
payer.setSpendControls({ allowedAssets: [{ network, asset: process.env.ASSET, maxAmountPerPayment: '100000' }] });

const url = new URL(process.env.URL);
const transport = process.env.TRANSPORT === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
const mcp = new Client({ name: 'caddy-x402-interop-agent', version: '1.0.0' });
await mcp.connect(transport);

const tools = await mcp.listTools();
const args = { q: 'interop' };
const first = await mcp.callTool({ name: tool, arguments: args });
let required = first.structuredContent;
if (!required?.x402Version || !required?.accepts) {
  required = JSON.parse(first.content[0].text);
}
const payment = await payer.createPaymentPayload(required);
const paid = await mcp.callTool({ name: tool, arguments: args, _meta: { 'x402/payment': payment } });
await mcp.close();

console.log(JSON.stringify({
  tools: tools.tools.map((t) => t.name),
  challenge: { isError: first.isError === true, resource: required.resource?.url, amount: required.accepts[0].amount },
  paid: { isError: paid.isError === true, text: paid.content?.[0]?.text, settlement: paid._meta?.['x402/payment-response'] ?? null },
}));
