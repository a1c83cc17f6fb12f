import { timingSafeEqual } from 'node:crypto';

/** A person as Airtable names one on the wire (a comment's author, whoami). */
export interface User {
  id: string;
  email: string;
  name: string;
}

/** An API key and the user it acts for. */
export interface KeyUser {
  apiKey: string;
  user: User;
}

/** The user of the server's own key (the app's demo connection and the standalone server's key). */
export const LOCAL_USER: User = { id: 'usrLocalTableDesk', email: 'you@tabledesk.local', name: 'You' };

/**
 * Who a request's `Authorization: Bearer <key>` acts for. Every key is compared in constant time, all of them
 * each time, so neither the time taken nor which key matched tells a caller anything about the others.
 */
export class Users {
  private readonly entries: { expected: Buffer; user: User }[];

  constructor(keys: readonly KeyUser[]) {
    this.entries = keys.map((k) => ({ expected: Buffer.from(`Bearer ${k.apiKey}`), user: k.user }));
  }

  byAuthorization(header: string | undefined): User | undefined {
    const given = Buffer.from(header ?? '');
    let found: User | undefined;
    for (const { expected, user } of this.entries) {
      if (given.length === expected.length && timingSafeEqual(given, expected)) found ??= user;
    }
    return found;
  }
}
