// The page's script, in the browser: asks its own server for the signed-in user's Questline token,
// hands it to the UI blocks, and logs what the user does through @questline/client with it; then
// the blocks refresh. The server bundles it (with the client) into /app.js.
import { createClient, QuestlineError } from '@questline/client';

interface Session {
  userId: string;
  token: string;
}

/** What every block has (docs/ui.md): its data loads when these are set, and refresh() loads it again. */
interface QuestlineBlock extends HTMLElement {
  refresh?(): Promise<void>;
}

const questlineUrl = document.body.dataset.questline ?? '';
const blocks = [...document.querySelectorAll<QuestlineBlock>('[data-questline-block]')];
const status = document.querySelector<HTMLElement>('#status');

/** The user-level token from this app's own server (which holds the client secret, not the page). */
async function fetchSession(): Promise<Session> {
  const response = await fetch('/session/questline-token', { method: 'POST' });
  if (!response.ok) throw new Error(`the app's server answered ${response.status}`);
  return (await response.json()) as Session;
}

/** Gives the blocks the user and the token; they load (again) when it changes. */
function handToBlocks(session: Session): void {
  for (const block of blocks) {
    block.setAttribute('base-url', questlineUrl);
    block.setAttribute('user-id', session.userId);
    block.setAttribute('token', session.token);
  }
}

function show(message: string, tone: 'info' | 'success' | 'error' = 'info'): void {
  if (status === null) return;
  status.textContent = message;
  status.dataset.tone = tone;
}

const session = await fetchSession();
handToBlocks(session);

// The client asks for a token again when this one is about to expire, or is refused; the blocks get it too.
let first: Session | undefined = session;
const questline = createClient({
  baseUrl: questlineUrl,
  token: async () => {
    const current = first ?? (await fetchSession());
    if (first === undefined) handToBlocks(current);
    first = undefined;
    return current.token;
  },
});

/** One block after another: a page of blocks reloading at once would spend the user's request burst. */
async function refreshBlocks(): Promise<void> {
  for (const block of blocks) await block.refresh?.();
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-action]')) {
  button.addEventListener('click', async () => {
    const { action = '', value, topic, genre } = button.dataset;
    button.disabled = true;
    show('Saving…');
    try {
      // logAction gives the action an eventId before sending it, so a retry never counts twice.
      const outcome = await questline.logAction(session.userId, {
        action,
        ...(value !== undefined ? { value: Number(value) } : {}),
        metadata: { ...(topic !== undefined ? { topic } : {}), ...(genre !== undefined ? { genre } : {}) },
      });
      const earned = outcome.pointsAwarded.filter((p) => p.credited > 0).map((p) => `+${p.credited} ${p.category}`);
      const completed = outcome.missionsCompleted.map((m) => `completed “${m.name}”`);
      const level = outcome.levelChanged?.direction === 'up' ? [`reached ${outcome.levelChanged.to?.name ?? 'a new level'}`] : [];
      show([...earned, ...completed, ...level].join(' · ') || 'Saved: keep going, the next mission is closer.', 'success');
      await refreshBlocks();
    } catch (error) {
      show(
        error instanceof QuestlineError ? `Questline refused it: ${error.detail ?? error.title} (${error.code})` : `Could not save it: ${String(error)}`,
        'error',
      );
    } finally {
      button.disabled = false;
    }
  });
}
