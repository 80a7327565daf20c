import { add, Square } from "./math.js";

export const total = add(1, 2);
export const doubled = add(total, total);
const square: Square = new Square(3);
export const area = square.area();
