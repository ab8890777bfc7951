// Progressive enhancement of the hosted checkout page; every page works without it.
// - Follows the payment live: polls the page's status with backoff and, when the state changes,
//   swaps in the new page content (no reload) and moves focus to its heading.
// - After a payment: sends the buyer on to the shop's success page.
// - Focuses the error summary so screen readers announce what to fix.
// - Stops a double submission of the same-tab forms (Continue, Test outcomes): a second click while the
//   first is on its way does nothing.
(function () {
  'use strict';
  document.documentElement.className += ' js';
  var FIRST_DELAY = 1000;
  var MAX_DELAY = 15000;
  var timer = null;

  function init(fromSwap) {
    var main = document.getElementById('main');
    if (!main) return;
    var problem = document.getElementById('problem');
    if (problem) problem.focus();
    var heading = main.querySelector('h1[tabindex]');
    if (fromSwap && heading) heading.focus();
    var onward = main.querySelector('[data-redirect]');
    if (onward) {
      window.setTimeout(function () {
        window.location.assign(onward.getAttribute('href'));
      }, 1500);
    }
    var sameTabForms = main.querySelectorAll('form:not([target])');
    for (var f = 0; f < sameTabForms.length; f++) {
      sameTabForms[f].addEventListener('submit', function (event) {
        if (this.getAttribute('data-submitted')) return event.preventDefault();
        this.setAttribute('data-submitted', 'true');
        this.setAttribute('aria-busy', 'true');
      });
    }
    if (!main.hasAttribute('data-live')) return;
    follow(main.getAttribute('data-status-url'), main.getAttribute('data-state'));
    var forms = main.querySelectorAll('form[data-provider-form]');
    for (var i = 0; i < forms.length; i++) {
      forms[i].addEventListener('submit', function () {
        // The provider opens in a new tab; look for the change soon.
        follow(main.getAttribute('data-status-url'), main.getAttribute('data-state'), 500);
      });
    }
  }

  function follow(url, state, firstDelay) {
    var delay = firstDelay || FIRST_DELAY;
    window.clearTimeout(timer);
    function poll() {
      fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(
          function (body) {
            if (body && body.state && body.state !== state) return swap();
            delay = Math.min(delay * 1.5, MAX_DELAY);
            timer = window.setTimeout(poll, delay);
          },
          function () {
            delay = Math.min(delay * 2, MAX_DELAY * 2);
            timer = window.setTimeout(poll, delay);
          },
        );
    }
    timer = window.setTimeout(poll, delay);
  }

  function swap() {
    return fetch(window.location.pathname, { cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) {
        return response.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, 'text/html');
        var main = next.getElementById('main');
        var current = document.getElementById('main');
        if (!main || !current) return window.location.reload();
        current.replaceWith(document.importNode(main, true));
        document.title = next.title;
        init(true);
      });
  }

  // Back to a page kept in the back-forward cache: its forms can be sent again.
  window.addEventListener('pageshow', function (event) {
    if (!event.persisted) return;
    var sent = document.querySelectorAll('form[data-submitted]');
    for (var i = 0; i < sent.length; i++) {
      sent[i].removeAttribute('data-submitted');
      sent[i].removeAttribute('aria-busy');
    }
  });

  init(false);
})();
