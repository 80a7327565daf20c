import type { LanguageClient } from "../client/language-client.js";
import { pythonPathOf, serverSetup } from "./server-setup.js";

/** How often, at most, a Python server's environment is looked for again (see {@link EnvironmentRefresh}). */
const environmentCheckMs = 1_000;

/**
 * Pyright was given the project's Python environment when it started; one made, changed or
 * removed since (a `.venv` created after the first question) is handed to it with the other
 * settings (`changeSettings`). Looked for on use, at most once a second per server.
 */
export class EnvironmentRefresh {
  /** When each server's Python environment was last looked for. */
  private readonly checks = new WeakMap<LanguageClient, number>();
  /** A root as shown, and the working directory, for {@link serverSetup}. */
  private readonly placeOf: (root: string) => { display: string; workingDirectory: string };

  constructor(placeOf: (root: string) => { display: string; workingDirectory: string }) {
    this.placeOf = placeOf;
  }

  /** Hands `client` its project's Python environment when it changed since it was last looked for. */
  async refresh(client: LanguageClient): Promise<void> {
    const now = Date.now();
    if (now - (this.checks.get(client) ?? 0) < environmentCheckMs) return;
    this.checks.set(client, now);
    const setup = serverSetup(client.spec, client.root, "", this.placeOf(client.root));
    if (!setup.ok) return;
    if (pythonPathOf(setup.settings) === pythonPathOf(client.currentSettings())) return;
    await client.changeSettings(setup.settings);
  }
}
