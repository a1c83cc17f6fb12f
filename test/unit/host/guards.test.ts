/**
 * The browser door's admission rules (host/guards.ts) on their own: each header must be exactly the door's,
 * not one that only starts like it (another port whose number starts with the door's, a host name that
 * starts with 127.0.0.1, a token with more after it).
 */
import { describe, expect, it } from 'vitest';
import { SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../../core/contract/names';
import { refusal } from '../../../host/guards';

const door = { token: 'T0k3n-of-this-launch', port: 4173 };
const own = `http://127.0.0.1:${door.port}`;
const protocols = (token: string) => `${SOCKET_PROTOCOL}, ${TOKEN_PROTOCOL_PREFIX}${token}`;

const socket = (headers: Record<string, string>) =>
  refusal(
    {
      host: `127.0.0.1:${door.port}`,
      origin: own,
      'sec-websocket-protocol': protocols(door.token),
      ...headers,
    },
    '/tabledesk-socket',
    door,
    true,
  );
const page = (headers: Record<string, string>, url = `/?token=${door.token}`) =>
  refusal({ host: `127.0.0.1:${door.port}`, ...headers }, url, door, false);

describe("the door's guards", () => {
  it("let the door's own page and socket in, by 127.0.0.1 or localhost", () => {
    expect(socket({})).toBeUndefined();
    expect(
      socket({ host: `localhost:${door.port}`, origin: `http://localhost:${door.port}` }),
    ).toBeUndefined();
    expect(page({})).toBeUndefined();
    expect(page({ origin: own })).toBeUndefined();
    // The page's scripts need no token.
    expect(page({}, '/app.js')).toBeUndefined();
  });

  it.each([
    `${own}0`,
    `${own}.evil.example`,
    `${own}@evil.example`,
    `${own}/`,
    `https://127.0.0.1:${door.port}`,
    `http://127.0.0.1:${String(door.port).slice(0, -1)}`,
    `http://localhost:${door.port}1`,
    'null',
    '',
  ])('refuse an Origin that is not exactly the door’s: %j', (origin) => {
    expect(socket({ origin })).toMatchObject({ status: 403 });
    expect(page({ origin })).toMatchObject({ status: 403 });
  });

  it.each([
    `127.0.0.1:${door.port}0`,
    `127.0.0.1:${door.port}.evil.example`,
    `127.0.0.1.evil.example:${door.port}`,
    `localhost:${door.port}1`,
    `127.0.0.1`,
    `evil.example:${door.port}`,
  ])('refuse a Host that is not exactly the door’s: %j', (host) => {
    expect(socket({ host })).toMatchObject({ status: 403 });
    expect(page({ host })).toMatchObject({ status: 403 });
    expect(page({ host }, '/app.js')).toMatchObject({ status: 403 });
  });

  it('refuse a socket without an Origin, and a token that only starts like the launch’s or is cut short', () => {
    expect(
      refusal(
        {
          host: `127.0.0.1:${door.port}`,
          'sec-websocket-protocol': protocols(door.token),
        },
        '/tabledesk-socket',
        door,
        true,
      ),
    ).toMatchObject({ status: 403 });
    for (const token of [`${door.token}x`, door.token.slice(0, -1), '', door.token.toUpperCase()]) {
      expect(socket({ 'sec-websocket-protocol': protocols(token) })).toMatchObject({ status: 403 });
      expect(page({}, `/?token=${encodeURIComponent(token)}`)).toMatchObject({ status: 403 });
    }
    expect(socket({ 'sec-websocket-protocol': SOCKET_PROTOCOL })).toMatchObject({ status: 403 });
    expect(page({}, '/')).toMatchObject({ status: 403 });
    expect(page({}, '/index.html')).toMatchObject({ status: 403 });
  });

  it('refuse a request path that cannot be read', () => {
    expect(page({}, `//evil.example/?token=${door.token}`)).toMatchObject({ status: 400 });
    expect(page({}, `http://evil.example/?token=${door.token}`)).toMatchObject({ status: 400 });
  });
});
