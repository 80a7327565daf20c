/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(private readonly side: number) {}
  area(): number {
    return this.side * this.side;
  }
}
