// The dashboard's only script (CSP: script-src 'self'); every page works without it. It adds:
// copy buttons for shown-once keys, secrets and snippets (data-copy="element id"), typed confirmation
// (a submit button stays disabled until the input with data-confirm-text holds that exact text), and
// a browser confirmation before forms marked data-confirm.
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const source = document.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    });
  }
  for (const input of document.querySelectorAll('input[data-confirm-text]')) {
    const button = input.form && input.form.querySelector('button[type="submit"]');
    if (!button) continue;
    const update = () => {
      button.disabled = input.value.trim() !== input.dataset.confirmText;
    };
    input.addEventListener('input', update);
    update();
  }
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
});
