/**
 * A fetch for the app's harness that holds every PATCH until `release`: an edit stays on its way while the
 * test makes another, so the save of the first can be answered after the second was refused or discarded.
 */
export function holdPatches(holdFromStart = true) {
  let holding = holdFromStart;
  const held: (() => void)[] = [];
  return {
    fetch: async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
      if (init?.method === 'PATCH' && holding) await new Promise<void>((go) => held.push(go));
      return fetch(input, init);
    },
    /** PATCHes waiting. */
    get count(): number {
      return held.length;
    },
    /** Holds the PATCHes from now on. */
    hold(): void {
      holding = true;
    },
    /** Lets the waiting PATCHes go, and every later one through at once. */
    release(): void {
      holding = false;
      for (const go of held.splice(0)) go();
    },
  };
}
