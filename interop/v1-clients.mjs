// v1-clients.mjs drives a caddy-x402 paid route with upstream's x402 v1
// clients, x402-fetch 1.2.0 and x402-axios 0.7.2: each pays the route once
// with its own key, as a v1 client does (it reads the 402's JSON body and
// pays in X-PAYMENT). It prints one JSON line: for each client, what it
// got (status, body, the decoded X-PAYMENT-RESPONSE, whether
// PAYMENT-RESPONSE came too) or the error it threw, and the X-PAYMENT it
// sent, so that the test can present the same authorization again.
//
//   URL=http://127.0.0.1:8080/paid FETCH_KEY=0x… AXIOS_KEY=0x… [NETWORK=base-sepolia] node v1-clients.mjs
import { wrapFetchWithPayment, createSigner, decodeXPaymentResponse } from 'x402-fetch';
import { withPaymentInterceptor, createSigner as createAxiosSigner, decodeXPaymentResponse as decodeAxiosResponse } from 'x402-axios';
import axios from 'axios';

const url = process.env.URL;
const network = process.env.NETWORK ?? 'base-sepolia';
const out = {};

// The error a client threw, shortened: a zod error lists every network.
const failure = (e) => String(e?.message ?? e).slice(0, 400);

// What the route says to a client that does not pay: its 402 body.
async function challenge() {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

async function viaFetch() {
  const sent = [];
  const recording = async (input, init) => {
    const payment = new Headers(init?.headers).get('X-PAYMENT');
    if (payment) sent.push(payment);
    return fetch(input, init);
  };
  try {
    const signer = await createSigner(network, process.env.FETCH_KEY);
    const res = await wrapFetchWithPayment(recording, signer)(url);
    const header = res.headers.get('X-PAYMENT-RESPONSE');
    return {
      status: res.status,
      body: await res.text(),
      receipt: header ? decodeXPaymentResponse(header) : null,
      v2Receipt: res.headers.has('PAYMENT-RESPONSE'),
      payment: sent[0] ?? null,
    };
  } catch (e) {
    return { error: failure(e), payment: sent[0] ?? null };
  }
}

async function viaAxios() {
  const sent = [];
  try {
    const signer = await createAxiosSigner(network, process.env.AXIOS_KEY);
    const api = withPaymentInterceptor(axios.create(), signer);
    api.interceptors.request.use((config) => {
      const payment = config.headers?.get?.('X-PAYMENT') ?? config.headers?.['X-PAYMENT'];
      if (payment) sent.push(payment);
      return config;
    });
    // axios parses the JSON bodies: x402-axios reads the 402's as an object.
    const res = await api.get(url);
    const header = res.headers['x-payment-response'];
    return {
      status: res.status,
      body: typeof res.data === 'string' ? res.data : JSON.stringify(res.data),
      receipt: header ? decodeAxiosResponse(header) : null,
      v2Receipt: 'payment-response' in res.headers,
      payment: sent[0] ?? null,
    };
  } catch (e) {
    return { error: failure(e), status: e?.response?.status ?? null, payment: sent[0] ?? null };
  }
}

out.challenge = await challenge();
out.fetch = await viaFetch();
out.axios = await viaAxios();
console.log(JSON.stringify(out));
