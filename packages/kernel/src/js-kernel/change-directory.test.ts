import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CdError, changeDirectory, passwdFile, userHome } from "./change-directory.js";

const start = process.cwd();
const folder = realpathSync(mkdtempSync(join(tmpdir(), "tools-cd-")));
afterEach(() => {
  process.chdir(start);
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The CdError `changeDirectory(argument, passwd)` throws. */
function refusal(argument: string, passwd?: string): CdError {
  try {
    changeDirectory(argument, passwd);
  } catch (error) {
    if (error instanceof CdError) return error;
    throw error;
  }
  throw new Error(`%cd ${argument} did not fail`);
}

describe("%cd ~name (JavaScript), as Python's expanduser", () => {
  const home = join(folder, "home of ada");
  const passwd = join(folder, "passwd");
  mkdirSync(join(home, "src"), { recursive: true });
  writeFileSync(passwd, `root:x:0:0:root:/root:/bin/bash\nada:x:1000:1000:Ada,,,:${home}:/bin/sh\n`);

  it("goes to the user's home folder as the passwd file lists it, and under it", () => {
    expect(changeDirectory("~ada", passwd)).toBe(home);
    expect(changeDirectory("~ada/src", passwd)).toBe(join(home, "src"));
    expect(changeDirectory("'~ada/src'", passwd)).toBe(join(home, "src"));
    expect(changeDirectory("-q ~ada", passwd)).toBeUndefined();
    expect(process.cwd()).toBe(home);
  });

  it("refuses a user the passwd file does not list, in one line, and stays where it was", () => {
    process.chdir(folder);
    const error = refusal("~bob/src", passwd);
    expect(error.message).toBe(
      `%cd ~bob/src: no user 'bob' in ${passwd}, so no home folder to go to (the cell is in ${folder}); give the folder's path (one named so: %cd ./~bob/src)`,
    );
    expect(process.cwd()).toBe(folder);
    // A folder really named so is reached as the message says.
    mkdirSync(join(folder, "~bob", "src"), { recursive: true });
    expect(changeDirectory("./~bob/src", passwd)).toBe(join(folder, "~bob", "src"));
  });

  it("reads the system's passwd file by default", () => {
    const { username } = userInfo();
    const listed = userHome(username);
    if (listed === undefined && process.env.CI !== "true") {
      console.warn(`skipped: the user running the tests (${username}) is not listed in ${passwdFile}`);
      return;
    }
    expect(listed, `${username} listed in ${passwdFile}`).toBeDefined();
    expect(changeDirectory(`~${username}`)).toBe(realpathSync(listed!));
  });
});
