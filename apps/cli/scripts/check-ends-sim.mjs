// check --bad's step answer on synthetic steps (the README's figures for the
// leaning-good rule): four symptom cases of one layer with the measured ends
// and 99% half-widths of the cmac clone, one reading in ten three times
// wider; how often a step at a harmless commit / a commit with the regression
// answers good, bad or cannot tell, with the rule (endsVerdict) and without
// it (good only when every case reads good). Run after the build:
//   node apps/cli/scripts/check-ends-sim.mjs
import { emptyBisectCase } from '../dist/bisect/run.js';
import { endLike, endsVerdict } from '../dist/commands/check-ends.js';
const Z = 2.576;
const symptoms = [
  { id: 'oneshot/table', ratio: 1.175, ci: [1.087, 1.269], half: 0.12 },
  { id: 'oneshot/ct', ratio: 1.075, ci: [1.057, 1.093], half: 0.03 },
  { id: 'preloaded/table', ratio: 1.323, ci: [1.291, 1.354], half: 0.05 },
  { id: 'preloaded/ct', ratio: 1.118, ci: [1.087, 1.148], half: 0.035 },
].map((s) => ({ ...s, midpoint: Math.sqrt(s.ratio) }));
let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
function step(bad, under, stuck, partial) {
  return symptoms.map((s, i) => {
    const half = s.half * (rnd() < stuck ? 3 : 1);
    const truth = bad && (!partial || i === 0) ? Math.log(s.ratio) : 0;
    const est = truth + gauss() * (half / Z) * under; // under > 1: intervals narrower than the truth
    const c = {
      ...emptyBisectCase({ id: s.id, layer: 'cmac', params: {} }),
      total: {
        ratio: Math.exp(est),
        ci: [Math.exp(est - half), Math.exp(est + half)],
        pValue: 0.5,
        verdict: 'inconclusive',
      },
    };
    return { symptom: s, like: endLike(c, s), by: c };
  });
}
for (const [label, under, stuck, partial] of [
  ['calibrated', 1, 0.1, false],
  ['intervals 1.5x too narrow', 1.5, 0.1, false],
  ['partial: only the noisiest case (oneshot/table) changed', 1, 0.1, true],
]) {
  for (const bad of [false, true]) {
    const n = 20000;
    const w = { 0: 0, 1: 0, 125: 0 };
    const o = { 0: 0, 1: 0, 125: 0 };
    for (let k = 0; k < n; k++) {
      const r = step(bad, under, stuck, partial);
      w[endsVerdict(r, true).code]++;
      const old = r.some((x) => x.like === 'bad') ? 1 : r.every((x) => x.like === 'good') ? 0 : 125;
      o[old]++;
    }
    const pct = (x) => `${((100 * x) / n).toFixed(2)}%`;
    console.log(
      `${label}, ${bad ? 'bad' : 'good'} commit: with the rule good ${pct(w[0])} bad ${pct(w[1])} 125 ${pct(w[125])} | without good ${pct(o[0])} bad ${pct(o[1])} 125 ${pct(o[125])}`,
    );
  }
}
