// The caddy-x402 browser paywall. It pays this page's URL with the visitor's
// wallet: x402 v2, scheme exact, an EIP-3009 TransferWithAuthorization
// signed with eth_signTypedData_v4 and sent in PAYMENT-SIGNATURE. A 503
// (settlement pending) is retried with the same payment, never signed again.
(function () {
  'use strict';
  var me = document.currentScript;
  // A template may put the script before the page's body: wait for it.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main); else main();
  function main() {
    var data = JSON.parse(me.getAttribute('data-paywall'));
    var challenge = data.challenge, accepts = challenge.accepts || [], meta = data.offers || [];
    var root = document.getElementById('x402-pay');
    if (!root) {
      root = document.createElement('div');
      root.id = 'x402-pay';
      document.body.appendChild(root);
    }
    var payable = [];
    meta.forEach(function (m, i) { if (m.payable) payable.push(i); });

    function el(tag, attrs, kids) {
      var e = document.createElement(tag);
      Object.keys(attrs || {}).forEach(function (k) {
        if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]);
      });
      (kids || []).forEach(function (c) { e.append(c); });
      return e;
    }
    var status = el('p', { id: 'x402-status', role: 'status', 'aria-live': 'polite' });
    var account = el('p', { id: 'x402-account', class: 'acct', hidden: '' });
    var choices = el('div', { id: 'x402-wallets', class: 'row' });
    var connectBtn = el('button', { id: 'x402-connect', type: 'button', text: 'Connect wallet' });
    var payBtn = el('button', { id: 'x402-pay-button', type: 'button', hidden: '' });
    var retryBtn = el('button', { id: 'x402-retry', type: 'button', hidden: '', text: 'Try again with the same payment' });
    var result = el('div', { id: 'x402-result', class: 'result' });
    root.replaceChildren(account, status, choices, el('div', { class: 'row' }, [connectBtn, payBtn, retryBtn]), result);

    var provider = null, walletName = 'your wallet', from = null, busy = false, pending = null, heard = [];
    var sel = payable.length ? payable[0] : -1;

    function say(state, msg, kind) {
      status.textContent = msg;
      status.className = msg ? 'note ' + (kind || '') : '';
      status.setAttribute('data-state', state);
      root.setAttribute('data-state', state);
    }
    function price(i) {
      var m = meta[i];
      return m.decimals == null ? m.price + ' atomic units of ' + m.token : m.price + ' ' + m.token;
    }
    function units(v, d) {
      if (d == null) return v.toString();
      var s = v.toString().padStart(d + 1, '0');
      var whole = s.slice(0, s.length - d), frac = s.slice(s.length - d).replace(/0+$/, '');
      return frac ? whole + '.' + frac : whole;
    }
    function short(a) { return a.length > 14 ? a.slice(0, 6) + '…' + a.slice(-4) : a; }
    function hex(n) { return '0x' + n.toString(16); }
    function code(e) {
      if (!e) return 0;
      if (e.code === 4001 || e.code === 4902) return e.code;
      var inner = e.data && (e.data.originalError || e.data.cause);
      return (inner && inner.code) || e.code || 0;
    }
    function b64(s) {
      var b = new TextEncoder().encode(s), t = '';
      for (var i = 0; i < b.length; i++) t += String.fromCharCode(b[i]);
      return btoa(t);
    }
    function unb64(s) {
      var t = atob(s.trim().replace(/-/g, '+').replace(/_/g, '/')), b = new Uint8Array(t.length);
      for (var i = 0; i < t.length; i++) b[i] = t.charCodeAt(i);
      return JSON.parse(new TextDecoder().decode(b));
    }
    function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

    // The offer to pay: a radio button on each payable offer when there are
    // several.
    function choose(i) {
      sel = i;
      document.querySelectorAll('#x402-offers li').forEach(function (li) {
        var on = Number(li.getAttribute('data-offer')) === i;
        li.classList.toggle('on', on && payable.length > 1);
        var r = li.querySelector('input');
        if (r) r.checked = on;
      });
      payBtn.textContent = 'Pay ' + price(i);
    }
    if (payable.length > 1) {
      payable.forEach(function (i) {
        var label = document.querySelector('#x402-offers li[data-offer="' + i + '"] label');
        if (!label) return;
        var r = el('input', { type: 'radio', name: 'x402-offer', value: String(i) });
        r.addEventListener('change', function () { if (!busy) { choose(i); if (provider) prepare(); } });
        label.prepend(r);
      });
    }
    if (sel < 0 || data.method !== 'GET') {
      connectBtn.hidden = true;
      say('unpayable', sel < 0 ? 'None of these offers can be paid from the browser: use an x402 client (below).' :
        'This page can pay only for a plain link (GET), not for a ' + data.method + ' request: use an x402 client (below).', 'bad');
      return;
    }
    choose(sel);

    // EIP-6963: wallets announce themselves; window.ethereum is the fallback.
    var wallets = [];
    window.addEventListener('eip6963:announceProvider', function (ev) {
      var d = ev.detail;
      if (!d || !d.provider || !d.info || wallets.some(function (w) { return w.info.uuid === d.info.uuid; })) return;
      wallets.push(d);
      // A wallet that announces itself late makes the page payable again.
      if (connectBtn.disabled && !provider) {
        connectBtn.disabled = false;
        say('', '');
      }
    });
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    function noWallet() {
      connectBtn.disabled = true;
      say('no-wallet', 'No browser wallet found. Install a wallet extension (such as MetaMask, Rabby or Coinbase Wallet) and reload this page, or pay with an x402 client (below).', 'bad');
    }
    setTimeout(function () { if (!provider && !wallets.length && !window.ethereum) noWallet(); }, 500);

    connectBtn.addEventListener('click', function () {
      window.dispatchEvent(new Event('eip6963:requestProvider'));
      if (wallets.length > 1) {
        choices.replaceChildren.apply(choices, wallets.map(function (w) {
          var b = el('button', { type: 'button', class: 'alt' });
          if (/^data:image\//.test(w.info.icon || '')) b.append(el('img', { src: w.info.icon, alt: '', width: '20', height: '20' }), ' ');
          b.append(w.info.name || 'Wallet');
          b.addEventListener('click', function () { choices.replaceChildren(); use(w.provider, w.info.name); });
          return b;
        }));
        say('choose-wallet', 'Choose a wallet.');
      } else if (wallets.length === 1) {
        use(wallets[0].provider, wallets[0].info.name);
      } else if (window.ethereum) {
        use(window.ethereum, 'your wallet');
      } else {
        noWallet();
      }
    });

    async function use(p, name) {
      provider = p;
      walletName = name || 'your wallet';
      say('connecting', 'Connecting to ' + walletName + '…');
      var accounts;
      try {
        accounts = await provider.request({ method: 'eth_requestAccounts' });
      } catch (e) {
        provider = null;
        return fail(e, 'You declined to connect ' + walletName + '.');
      }
      from = accounts && accounts[0];
      if (!from) {
        provider = null;
        return say('error', walletName + ' shared no account.', 'bad');
      }
      connectBtn.hidden = true;
      if (provider.on && heard.indexOf(provider) < 0) {
        heard.push(provider);
        provider.on('accountsChanged', function (a) { from = a && a[0]; if (!busy && from) prepare(); });
        provider.on('chainChanged', function () { if (!busy) prepare(); });
      }
      try {
        var have = await chainId();
        var same = payable.filter(function (i) { return meta[i].chainId === have; });
        if (same.length) choose(same[0]);
      } catch (e) { /* prepare asks again */ }
      prepare();
    }

    async function chainId() {
      return parseInt(await provider.request({ method: 'eth_chainId' }), 16);
    }

    // fail shows a wallet's error; refused is the message for EIP-1193's
    // 4001, the user saying no.
    function fail(e, refused) {
      busy = false;
      if (code(e) === 4001) return say('refused', refused, 'bad');
      say('error', 'The wallet answered: ' + ((e && e.message) || String(e)), 'bad');
    }

    // prepare puts the wallet on the offer's network and checks the balance,
    // once at a time (a switch of network also tells chainChanged).
    var preparing = false;
    async function prepare() {
      if (preparing) return;
      preparing = true;
      try { await check(); } finally { preparing = false; }
    }
    async function check() {
      payBtn.hidden = false;
      payBtn.disabled = true;
      payBtn.onclick = pay;
      choose(sel);
      var o = accepts[sel], m = meta[sel], net = m.network.name;
      say('checking', 'Checking ' + walletName + '…');
      try {
        if (await chainId() !== m.chainId) {
          say('switching', 'Asking ' + walletName + ' to switch to ' + net + '…');
          try {
            await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex(m.chainId) }] });
          } catch (e) {
            if (code(e) !== 4902 || !m.network.rpcUrl) throw e;
            say('switching', 'Asking ' + walletName + ' to add ' + net + '…');
            await provider.request({ method: 'wallet_addEthereumChain', params: [{
              chainId: hex(m.chainId), chainName: m.network.name, rpcUrls: [m.network.rpcUrl],
              nativeCurrency: { name: m.network.currency || 'Ether', symbol: m.network.currency || 'ETH', decimals: 18 },
              blockExplorerUrls: m.network.explorerUrl ? [m.network.explorerUrl] : undefined
            }] });
          }
          var now = await chainId();
          if (now !== m.chainId) throw { code: -1, message: 'still on chain id ' + now };
        }
      } catch (e) {
        payBtn.textContent = 'Switch network';
        payBtn.disabled = false;
        payBtn.onclick = prepare;
        var how = code(e) === 4001 ? 'You declined to switch networks.' : code(e) === 4902 ? walletName + ' does not know this network: add it to ' + walletName + ' first.' : '';
        return say('wrong-network', (how ? how + ' ' : '') + 'Switch ' + walletName + ' to ' + net + ' to pay.', 'bad');
      }
      payBtn.textContent = 'Pay ' + price(sel);
      say('balance', 'Reading your balance…');
      var bal = await balance(), token = m.decimals == null ? ' atomic units of ' + m.token : ' ' + m.token;
      if (bal !== null && bal < BigInt(o.amount)) {
        payBtn.textContent = 'Check the balance again';
        payBtn.disabled = false;
        payBtn.onclick = prepare;
        return say('low-balance', 'Your balance is too low: ' + units(bal, m.decimals) + token + ', and this costs ' + price(sel) + '. Add funds to ' + short(from) + ' on ' + m.network.name + ', then check again.', 'bad');
      }
      payBtn.disabled = false;
      say('ready', 'Paying asks ' + walletName + ' to sign a transfer of ' + price(sel) + ' to ' + data.merchant + ' (' + short(o.payTo) + ').');
    }

    // balance reads the account's balance of the chosen offer's token and
    // shows it; null when the wallet cannot say.
    async function balance() {
      var o = accepts[sel], m = meta[sel], bal = null;
      account.hidden = false;
      account.replaceChildren('Account ', el('code', { title: from, text: short(from) }), ' on ' + m.network.name);
      try {
        var out = await provider.request({ method: 'eth_call', params: [{ to: o.asset, data: '0x70a08231' + from.slice(2).toLowerCase().padStart(64, '0') }, 'latest'] });
        bal = BigInt(out && out !== '0x' ? out : 0);
      } catch (e) { return null; }
      account.append(' · balance ', el('strong', { text: units(bal, m.decimals) + (m.decimals == null ? ' atomic units of ' : ' ') + m.token }));
      return bal;
    }

    async function pay() {
      if (busy) return;
      busy = true;
      payBtn.disabled = true;
      var o = accepts[sel], m = meta[sel];
      try {
        if (await chainId() !== m.chainId) { busy = false; return prepare(); }
      } catch (e) { return fail(e, 'You declined.'); }
      var n = crypto.getRandomValues(new Uint8Array(32)), nonce = '0x';
      n.forEach(function (b) { nonce += b.toString(16).padStart(2, '0'); });
      var now = Math.floor(Date.now() / 1000);
      var auth = {
        from: from, to: o.payTo, value: o.amount, validAfter: String(now - 600),
        validBefore: String(now + (o.maxTimeoutSeconds || 60)), nonce: nonce
      };
      var typed = {
        types: {
          EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
          TransferWithAuthorization: [{ name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
            { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' }]
        },
        primaryType: 'TransferWithAuthorization',
        domain: { name: o.extra.name, version: o.extra.version, chainId: m.chainId, verifyingContract: o.asset },
        message: auth
      };
      say('signing', 'Confirm the payment of ' + price(sel) + ' in ' + walletName + '…');
      var sig;
      try {
        sig = await provider.request({ method: 'eth_signTypedData_v4', params: [from, JSON.stringify(typed)] });
      } catch (e) {
        payBtn.disabled = false;
        return fail(e, 'You declined to sign: nothing was paid.');
      }
      var payment = { x402Version: 2, resource: challenge.resource, accepted: o, payload: { signature: sig, authorization: auth } };
      send(b64(JSON.stringify(payment)));
    }

    function retryAfter(resp) {
      var s = parseInt(resp.headers.get('Retry-After'), 10);
      return isNaN(s) ? 2 : Math.min(Math.max(s, 1), 30);
    }

    // send repeats the request with the payment until it is not 503: the
    // same payment each time, since the first may have settled.
    async function send(header) {
      busy = true;
      pending = header;
      retryBtn.hidden = true;
      payBtn.hidden = true;
      for (var attempt = 0; attempt < 20; attempt++) {
        say(attempt ? 'pending' : 'sending', attempt ? 'Settlement pending: trying again with the same payment. You will not be asked to sign again.' : 'Paying…', attempt ? 'wait' : '');
        var resp = null;
        try {
          resp = await fetch(location.href, { headers: { 'PAYMENT-SIGNATURE': header, Accept: 'text/html,application/json;q=0.9,*/*;q=0.8' }, cache: 'no-store', credentials: 'same-origin' });
        } catch (e) { resp = null; }
        if (resp && resp.status !== 503) return done(resp);
        var wait = resp ? retryAfter(resp) : 2;
        say('pending', (resp ? 'The payment is being settled' : 'The server could not be reached') + ': trying again in ' + wait + ' s with the same payment. You will not be asked to sign again.', 'wait');
        await sleep(wait * 1000);
      }
      say('pending', 'The payment has not settled yet. Try again with the same payment: you will not be asked to sign again, and it is paid once.', 'wait');
      retryBtn.hidden = false;
      retryBtn.onclick = function () { send(header); };
    }
    window.addEventListener('beforeunload', function (e) { if (pending) e.preventDefault(); });

    async function done(resp) {
      busy = false;
      var m = meta[sel];
      if (resp.status === 402) {
        pending = null;
        var why = '';
        try { why = unb64(resp.headers.get('PAYMENT-REQUIRED')).error; } catch (e) { /* the body says */ }
        if (!why) try { why = (await resp.json()).error; } catch (e) { /* no reason */ }
        payBtn.hidden = false;
        payBtn.disabled = false;
        payBtn.onclick = pay;
        say('declined', 'The payment was not accepted: ' + (why || 'no reason given') + '. Nothing was charged; you can pay again.', 'bad');
        return balance();
      }
      pending = null;
      var receipt = null;
      try { receipt = unb64(resp.headers.get('PAYMENT-RESPONSE')); } catch (e) { /* not paid */ }
      payBtn.hidden = true;
      account.hidden = true;
      var paid = receipt && receipt.success;
      // The answer first, then the state that says it is there.
      try { await show(resp); } catch (e) { result.replaceChildren(el('p', { class: 'note bad', text: 'The answer could not be shown: ' + e.message })); }
      if (paid) {
        var kicker = document.getElementById('x402-kicker'), other = document.getElementById('x402-other');
        if (kicker) kicker.textContent = 'Paid';
        if (other) other.hidden = true;
        var tx = receipt.transaction || '';
        status.replaceChildren();
        say('paid', 'Paid ' + price(sel) + ' on ' + m.network.name + (tx ? ': transaction ' : '.'), 'ok');
        if (tx) {
          var link = m.network.explorerUrl ? el('a', { href: m.network.explorerUrl.replace(/\/$/, '') + '/tx/' + tx, rel: 'noopener', target: '_blank' }) : el('code');
          link.textContent = short(tx);
          link.title = tx;
          status.append(link, '.');
        }
      } else {
        say('unpaid', 'The server answered ' + resp.status + (resp.ok ? '' : ' and charged nothing') + '.', resp.ok ? '' : 'bad');
      }
    }

    // show puts the answer in the page: HTML in a sandboxed frame (no
    // scripts), JSON and text as text, anything else as a download.
    async function show(resp) {
      var type = (resp.headers.get('Content-Type') || '').toLowerCase();
      if (/^text\/html/.test(type)) {
        var f = el('iframe', { sandbox: '', title: 'Paid content', referrerpolicy: 'no-referrer' });
        f.srcdoc = await resp.text();
        return result.replaceChildren(f);
      }
      if (/^text\/|[/+]json/.test(type) || !type) {
        var t = await resp.text();
        if (/json/.test(type)) try { t = JSON.stringify(JSON.parse(t), null, 2); } catch (e) { /* as it is */ }
        return result.replaceChildren(el('pre', { text: t }));
      }
      var blob = await resp.blob();
      var name = (/filename\*?=(?:UTF-8'')?"?([^";]+)/i.exec(resp.headers.get('Content-Disposition') || '') || [])[1];
      name = name || location.pathname.split('/').pop() || 'download';
      try { name = decodeURIComponent(name); } catch (e) { /* as it is */ }
      var a = el('a', { href: URL.createObjectURL(blob), download: name, id: 'x402-download' });
      a.textContent = 'Download ' + name + ' (' + (blob.size < 2048 ? blob.size + ' bytes' : Math.round(blob.size / 1024) + ' KB') + ')';
      result.replaceChildren(el('p', {}, [a]));
    }
  }
})();
