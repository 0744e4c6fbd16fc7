// Rolls notations with the real @dice-roller/rpg-dice-roller (pinned in package.json), seeded, and
// reports every random draw it made, so that Rollbook can be fed the same faces
// (tests/engine/dice/test_rpg_dice_roller.py).
//
// stdin:  [{"notation": "4d6kh3", "seed": 1}, ...]
// stdout: [{"total": 12, "output": "4d6kh3: [...] = 12", "draws": [[1, 6, 4], ...]}, ...]
//         each draw is [min, max, value] of one call to the library's generator.integer
import { DiceRoll, NumberGenerator } from "@dice-roller/rpg-dice-roller";
import { readFileSync } from "node:fs";

const { generator, engines } = NumberGenerator;
const integer = generator.integer.bind(generator);
let draws = [];
generator.integer = (min, max) => {
  const value = integer(min, max);
  draws.push([min, max, value]);
  return value;
};

const requests = JSON.parse(readFileSync(0, "utf8"));
const answers = requests.map(({ notation, seed }) => {
  generator.engine = engines.MersenneTwister19937.seed(seed);
  draws = [];
  try {
    const roll = new DiceRoll(notation);
    return { total: roll.total, output: roll.output, draws };
  } catch (error) {
    return { error: String(error) };
  }
});
process.stdout.write(JSON.stringify(answers));
