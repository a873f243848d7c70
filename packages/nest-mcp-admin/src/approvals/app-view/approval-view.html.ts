/**
 * The approval view's document: one self-contained page (inline style and script, no external
 * origin, no library), which speaks the view side of the MCP Apps protocol (JSON-RPC 2.0 over
 * `postMessage` with the host that embeds it) by hand:
 *
 * - `ui/initialize`, then `ui/notifications/initialized`;
 * - from the host, `ui/notifications/tool-result`: the destructive call's pending result, whose
 *   `_meta["nest-mcp/approval"]` (the layer's `APPROVAL_VIEW_META`) carries the approval, what the
 *   call does, its arguments and the secret; without it (a `link` tool, a host that strips it) the
 *   view shows the approval page's link from the envelope;
 * - Continue / Cancel: `tools/call` of `mcp_approval_decide` (app-only), whose answer it shows;
 * - "Open the approval page": `ui/open-link`; its height: `ui/notifications/size-changed`.
 *
 * Every value is written with `textContent` (never parsed as HTML), bidirectional-text controls
 * shown as visible `\u202E`-style escapes, as on the approval page.
 */
export const APPROVAL_VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Approval</title>
<style>
*{box-sizing:border-box}
body{margin:0;padding:1rem;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;background:transparent}
body.dark{color:#e5e7eb}
h1{font-size:1.1rem;margin:0 0 .5rem}
p{margin:.25rem 0 .75rem}
.muted{color:#6b7280}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #d1d5db;overflow-wrap:anywhere}
th{font-weight:600;white-space:nowrap}
td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;white-space:pre-wrap}
.actions{display:flex;gap:.5rem;margin-top:.75rem;flex-wrap:wrap}
button{font:inherit;font-weight:600;padding:.45rem 1.1rem;border-radius:6px;border:1px solid #9ca3af;background:#fff;color:#1d2433;cursor:pointer}
button.primary{background:#b91c1c;border-color:#b91c1c;color:#fff}
button:disabled{opacity:.5;cursor:default}
.outcome{margin-top:.75rem;padding:.5rem .75rem;border-radius:6px;background:#f3f4f6;color:#1d2433}
.outcome.bad{background:#fee2e2;color:#991b1b}
.outcome.good{background:#d1fae5;color:#065f46}
[hidden]{display:none}
</style>
</head>
<body>
<main id="approval">
<h1 id="title">Waiting for the request…</h1>
<p id="summary" class="muted"></p>
<table id="arguments" hidden><tbody></tbody></table>
<p id="expiry" class="muted" hidden></p>
<div class="actions">
<button id="continue" class="primary" type="button" hidden>Continue</button>
<button id="cancel" type="button" hidden>Cancel</button>
<button id="open-page" type="button" hidden>Open the approval page</button>
</div>
<p id="outcome" class="outcome" role="status" hidden></p>
</main>
<script>
(function () {
  'use strict';
  var DECIDE_TOOL = 'mcp_approval_decide';
  var META_KEY = 'nest-mcp/approval';
  var PROTOCOL_VERSION = '2026-01-26';
  var BIDI = /[\\u202A-\\u202E\\u2066-\\u2069\\u200E\\u200F\\u061C]/g;
  var nextId = 1;
  var pending = {};
  var approval = null;
  var pageUrl = null;
  var decided = false;

  function $(id) { return document.getElementById(id); }
  function visible(text) {
    return String(text).replace(BIDI, function (c) { return '\\\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'); });
  }
  function setText(id, text) { var el = $(id); el.textContent = visible(text); el.hidden = text === ''; }
  function show(id, on) { $(id).hidden = !on; }

  function send(message) { window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*'); }
  function request(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
      send({ id: id, method: method, params: params });
    });
  }
  function notify(method, params) { send({ method: method, params: params || {} }); }
  function resized() {
    notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight });
  }

  /** The envelope a tool result carries: its structuredContent, else the JSON of its first text block. */
  function envelopeOf(result) {
    if (result && result.structuredContent && typeof result.structuredContent === 'object') return result.structuredContent;
    var block = result && Array.isArray(result.content) ? result.content.find(function (b) { return b && b.type === 'text'; }) : null;
    try { return block ? JSON.parse(block.text) : null; } catch (e) { return null; }
  }
  function errorMessage(envelope, result) {
    var error = envelope && Array.isArray(envelope.errors) ? envelope.errors[0] : null;
    if (error && error.message) return error.message;
    var block = result && Array.isArray(result.content) ? result.content[0] : null;
    return block && block.text ? block.text : 'The decision failed.';
  }

  function renderArguments(args) {
    var body = $('arguments').tBodies[0];
    body.textContent = '';
    Object.keys(args || {}).forEach(function (name) {
      var row = body.insertRow();
      var th = document.createElement('th');
      th.textContent = visible(name);
      row.appendChild(th);
      var value = args[name];
      row.insertCell().textContent = visible(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    });
    show('arguments', body.rows.length > 0);
  }

  function renderApproval(meta) {
    approval = meta;
    pageUrl = meta.url || null;
    setText('title', 'Confirm "' + (meta.tool && meta.tool.title || meta.tool && meta.tool.name || 'this action') + '"?');
    setText('summary', (meta.tool && meta.tool.summary) || '');
    renderArguments(meta.arguments);
    setText('expiry', meta.expires_at ? 'Nothing has been done yet. This request expires at ' + new Date(meta.expires_at).toLocaleString() + '.' : '');
    show('continue', true);
    show('cancel', true);
    show('open-page', !!pageUrl);
  }

  /** A result without the view's data: where the approval stands, and the page's link when there is one. */
  function renderEnvelope(envelope) {
    if (!envelope) return;
    var link = envelope.approval && envelope.approval.url;
    pageUrl = link || null;
    if (envelope.status === 'pending_confirmation') {
      setText('title', 'Waiting for a person to approve');
      setText('summary', link ? 'This action is approved on the approval page, by a person who may approve it.' : '');
    } else {
      setText('title', envelope.ok ? 'Done' : 'Not done');
      setText('summary', envelope.ok ? '' : errorMessage(envelope, null));
    }
    show('open-page', !!pageUrl);
  }

  function outcome(text, kind) {
    var el = $('outcome');
    el.className = 'outcome' + (kind ? ' ' + kind : '');
    setText('outcome', text);
  }

  function decide(decision) {
    if (!approval || decided) return;
    $('continue').disabled = true;
    $('cancel').disabled = true;
    outcome(decision === 'continue' ? 'Running…' : 'Cancelling…', '');
    request('tools/call', {
      name: DECIDE_TOOL,
      arguments: { approval_id: approval.id, decision: decision, view_secret: approval.secret }
    }).then(function (result) {
      var envelope = envelopeOf(result);
      if (result && result.isError) {
        var error = envelope && envelope.errors && envelope.errors[0];
        // Someone else may still decide (an approver on the page): the buttons stay for a retry only when it may help.
        var final = !error || error.retryable !== true;
        decided = final;
        $('continue').disabled = final;
        $('cancel').disabled = final;
        outcome(errorMessage(envelope, result), 'bad');
        return;
      }
      decided = true;
      var data = envelope && envelope.data || {};
      if (data.status === 'executed') outcome('Done: ' + approval.tool.title + ' ran. The assistant gets its result when it asks again.', 'good');
      else if (data.status === 'failed') outcome(approval.tool.title + ' ran and refused: ' + (data.message || 'see the result') + '. Nothing was changed.', 'bad');
      else if (data.status === 'denied') outcome('Cancelled: nothing was done.', '');
      else outcome('Decided: ' + (data.status || 'unknown') + '.', '');
      show('continue', false);
      show('cancel', false);
    }, function (error) {
      $('continue').disabled = false;
      $('cancel').disabled = false;
      outcome('The host could not send the decision: ' + (error && error.message || error) + '. Try again, or use the approval page.', 'bad');
    }).then(resized);
  }

  function onToolResult(result) {
    var meta = result && result._meta && result._meta[META_KEY];
    if (meta && typeof meta === 'object' && meta.id && meta.secret) renderApproval(meta);
    else renderEnvelope(envelopeOf(result));
    resized();
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined && message.id !== undefined && pending[message.id]) {
      var waiter = pending[message.id];
      delete pending[message.id];
      if (message.error) waiter.reject(new Error(message.error.message || 'error ' + message.error.code));
      else waiter.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') onToolResult(message.params);
    else if (message.method === 'ui/notifications/host-context-changed') applyContext(message.params);
    else if (message.id !== undefined && (message.method === 'ui/resource-teardown' || message.method === 'ping')) send({ id: message.id, result: {} });
    else if (message.id !== undefined && message.method) send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
  });

  function applyContext(context) {
    if (context && context.theme) document.body.classList.toggle('dark', context.theme === 'dark');
  }

  $('continue').addEventListener('click', function () { decide('continue'); });
  $('cancel').addEventListener('click', function () { decide('cancel'); });
  $('open-page').addEventListener('click', function () { if (pageUrl) request('ui/open-link', { url: pageUrl }).catch(function () {}); });

  request('ui/initialize', {
    appInfo: { name: 'nest-mcp-approval', version: '1.0.0' },
    appCapabilities: {},
    protocolVersion: PROTOCOL_VERSION
  }).then(function (result) {
    applyContext(result && result.hostContext);
    notify('ui/notifications/initialized');
    resized();
  });
})();
</script>
</body>
</html>
`;
