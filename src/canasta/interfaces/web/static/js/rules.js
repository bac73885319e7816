// What the page needs to know of the rules presets (RULES §6): players, sides, the opening
// minimum. A view's "rules" is a preset name or {"preset": NAME, FIELD: VALUE, ...}.

const CLASSIC_THRESHOLDS = [[null, 15], [0, 50], [1500, 90], [3000, 120]];

export const PRESETS = {
  classic: { label: "Classic — 4 players, partners", players: 4, sides: 2, draw: 1 },
  "classic-2p": { label: "Classic — 2 players", players: 2, sides: 2, draw: 2, canastasToGoOut: 2, noAsk: true },
  "classic-3p": { label: "Classic — 3 players", players: 3, sides: 3, draw: 1, noAsk: true },
  "classic-3p-cutthroat": { label: "Cutthroat — 3 players", players: 3, sides: 3, draw: 2, canastasToGoOut: 2, noAsk: true, target: 7500 },
  "classic-6p": { label: "Classic — 6 players, 2 teams", players: 6, sides: 2, draw: 1, canastasToGoOut: 2, target: 10000, thresholds: [...CLASSIC_THRESHOLDS, [7000, 150]] },
  "korean-old": { label: "Korean (old) — 4 players", players: 4, sides: 2, draw: 2 },
  "spruce-classic": { label: "Spruce classic — 4 players", players: 4, sides: 2, draw: 1 },
};

/** {name, players, sides, thresholds, target, noAsk, canastasToGoOut, draw} of a view's rules. */
export function rulesInfo(rules) {
  const obj = typeof rules === "string" ? { preset: rules } : rules || { preset: "classic" };
  const name = obj.preset || obj.name || "classic";
  const base = PRESETS[name] || PRESETS.classic;
  return {
    name,
    label: base.label,
    players: obj.num_players ?? base.players,
    sides: obj.num_sides ?? base.sides,
    thresholds: obj.initial_meld_thresholds ?? base.thresholds ?? CLASSIC_THRESHOLDS,
    target: obj.target_score ?? base.target ?? 5000,
    noAsk: obj.permission_question_enabled === false || (obj.permission_question_enabled === undefined && !!base.noAsk),
    canastasToGoOut: obj.min_canastas_to_go_out ?? base.canastasToGoOut ?? 1,
    draw: obj.draw_count ?? base.draw ?? 1,
    overrides: Object.keys(obj).filter((k) => k !== "preset"),
  };
}

/** The opening minimum for a side's cumulative score (RULES §1.10). */
export function openingMinimum(info, score) {
  let min = info.thresholds[0][1];
  for (const [lower, value] of info.thresholds) {
    if (lower === null || score >= lower) min = value;
  }
  return min;
}
