/** The token prompt's script: posts the token as JSON and reloads; without it the form posts itself. */
import { byId } from './by-id.js';

byId<HTMLFormElement>('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  const answer = await fetch('session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: byId<HTMLInputElement>('token').value }),
  });
  if (answer.ok) location.reload();
  else byId('login-status').textContent = 'That token was not accepted.';
});
