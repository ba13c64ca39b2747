import { perReview } from "./instructions";

/**
 * Instructions per review through the engine and through the floor at 1, 100 and 10,000
 * objects (callgrind, as instructions.ts counts), for decisions about the engine's hot paths:
 * `npm run build:bench && node build/bench/count-engine.mjs [sizes]`. Several minutes.
 */
const SETTINGS: Record<number, { warm: number; count: number; blocks: number }> = {
  1: { warm: 1000, count: 200, blocks: 5 },
  100: { warm: 200, count: 20, blocks: 5 },
  10_000: { warm: 6, count: 1, blocks: 3 },
};
const sizes = (process.argv[2] ?? "1,100,10000").split(",").map(Number);
for (const objects of sizes) {
  const settings = { ...(SETTINGS[objects] ?? { warm: 20, count: 2, blocks: 3 }), objects };
  const [engine, floor] = await Promise.all([perReview("engine", settings), perReview("floor", settings)]);
  const k = (n: number) => `${(n / 1000).toFixed(1)} k`;
  console.log(
    `${objects} objects: engine ${k(engine.instructions)} / floor ${k(floor.instructions)} = ${(engine.instructions / floor.instructions).toFixed(3)}×` +
      `  (engine blocks ${engine.blocks.map(k).join(", ")}; floor ${floor.blocks.map(k).join(", ")})`,
  );
}
