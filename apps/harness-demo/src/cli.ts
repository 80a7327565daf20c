// Entry point of bin/harness-demo.js.
import { main } from "./cli/main.js";

const code = await main(process.argv.slice(2));
// Exit explicitly: a serve session may leave stdin listeners behind, and the exit code must hold.
process.stdout.write("", () => process.exit(code));
