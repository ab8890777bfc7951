// The dashboard checkout widget: the merchant pastes
//   <script src="https://PAGES_HOST/pay/assets/widget.js" data-checkout="chk_…" async></script>
// and this puts the checkout's framed page (/c/{chk_id}/embed) where the script tag is. The merchant's
// own CSP must allow this script (script-src) and the pages origin as a frame (frame-src).
/* global URL */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var id = script.getAttribute('data-checkout') || '';
  if (!/^chk_[0-9A-Za-z]+$/.test(id)) return;
  var frame = document.createElement('iframe');
  frame.src = new URL('/c/' + encodeURIComponent(id) + '/embed', script.src).href;
  frame.title = 'Checkout';
  frame.setAttribute('loading', 'lazy');
  frame.style.border = '0';
  frame.style.width = '100%';
  frame.style.maxWidth = '420px';
  frame.style.height = '360px';
  script.parentNode.insertBefore(frame, script.nextSibling);
})();
