export { greet, greetAll } from "./greet.js";
export { sum } from "./math.js";
