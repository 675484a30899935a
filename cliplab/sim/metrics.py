"""Design metrics of a result table, each with a 95% confidence interval, and comparisons of two tables.

The metrics follow Ludii's evaluation metrics (see docs/metrics.md for what each one means and how it is
computed here). Intervals:

- proportions (a share of games, or a seat's win share): Wilson score interval;
- means of per-game values: Student t interval;
- anything else (balance, standard deviations): percentile bootstrap over games, seeded (2,000 resamples).

`compare(a, b)` reports b - a for every metric with a 95% interval (Newcombe's hybrid score interval for
proportions, Welch's t for means, bootstrap otherwise), whether the interval excludes 0, and how many games
per side would detect a true difference of the observed size with power 0.8 at alpha 0.05 (two-sided).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Literal

import numpy as np
import pandas as pd

ALPHA = 0.05
POWER = 0.8
RESAMPLES = 2000
Z = NormalDist().inv_cdf(1 - ALPHA / 2)  # 1.959964
Z_POWER = NormalDist().inv_cdf(POWER)  # 0.841621

Kind = Literal["proportion", "mean", "bootstrap"]
# A bootstrap statistic takes resampled data shaped (resamples, games, columns) and gives one value per resample.
Statistic = Callable[[np.ndarray], np.ndarray]

METHODS = {"proportion": "Wilson", "mean": "t", "bootstrap": "bootstrap"}
DIFFERENCE_METHODS = {"proportion": "Newcombe", "mean": "Welch t", "bootstrap": "bootstrap"}


# ----- intervals ----------------------------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = Z) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional, e.g. shared wins)."""
    if n == 0:
        return math.nan, math.nan
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function, by the modified Lentz method."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


@lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t with df degrees of freedom (p >= 0.5), by bisection on the CDF."""
    if math.isinf(df):
        return NormalDist().inv_cdf(p)
    high = 2.0
    while t_cdf(high, df) < p:
        high *= 2.0
    low = 0.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-13 * max(1.0, high):
            break
    return (low + high) / 2.0


def t_interval(values: np.ndarray) -> tuple[float, float]:
    n = len(values)
    if n < 2:
        return math.nan, math.nan
    mean = float(np.mean(values))
    half = t_quantile(1 - ALPHA / 2, n - 1) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean - half, mean + half


def _resampled(data: np.ndarray, statistic: Statistic, rng: np.random.Generator, resamples: int) -> np.ndarray:
    """`statistic` on `resamples` bootstrap resamples of the rows (games) of `data`."""
    n = len(data)
    batch = max(1, min(resamples, 2_000_000 // max(1, n * data.shape[1])))
    found = []
    for start in range(0, resamples, batch):
        rows = rng.integers(0, n, size=(min(batch, resamples - start), n))
        found.append(statistic(data[rows]))
    return np.concatenate(found)


def bootstrap_interval(
    data: np.ndarray, statistic: Statistic, seed: int = 0, resamples: int = RESAMPLES
) -> tuple[float, float]:
    if len(data) < 2:
        return math.nan, math.nan
    values = _resampled(data, statistic, np.random.default_rng(seed), resamples)
    low, high = np.quantile(values, [ALPHA / 2, 1 - ALPHA / 2])
    return float(low), float(high)


def newcombe(successes_a: float, n_a: int, successes_b: float, n_b: int) -> tuple[float, float, float]:
    """p_b - p_a with Newcombe's hybrid score interval (built from the two Wilson intervals)."""
    p_a, p_b = successes_a / n_a, successes_b / n_b
    low_a, high_a = wilson(successes_a, n_a)
    low_b, high_b = wilson(successes_b, n_b)
    difference = p_b - p_a
    low = difference - math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2)
    high = difference + math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2)
    return difference, low, high


def welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """mean(b) - mean(a) with Welch's t interval."""
    difference = float(np.mean(b) - np.mean(a))
    if len(a) < 2 or len(b) < 2:
        return difference, math.nan, math.nan
    va, vb = float(np.var(a, ddof=1)) / len(a), float(np.var(b, ddof=1)) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return difference, difference, difference
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = t_quantile(1 - ALPHA / 2, df) * se
    return difference, difference - half, difference + half


def games_for_proportions(p_a: float, p_b: float) -> float:
    """Games per side to detect p_a vs p_b (two-sided alpha 0.05, power 0.8; normal approximation)."""
    difference = abs(p_b - p_a)
    if difference == 0:
        return math.inf
    pooled = (p_a + p_b) / 2
    spread = Z * math.sqrt(2 * pooled * (1 - pooled)) + Z_POWER * math.sqrt(p_a * (1 - p_a) + p_b * (1 - p_b))
    return float(max(2, math.ceil(spread**2 / difference**2)))


def games_for_variance(unit_variance: float, difference: float) -> float:
    """Games per side to detect `difference` when the difference's variance is unit_variance / games."""
    if difference == 0:
        return math.inf
    return float(max(2, math.ceil((Z + Z_POWER) ** 2 * unit_variance / difference**2)))


# ----- per-game values ------------------------------------------------------------------------------------


def _players(frame: pd.DataFrame) -> int:
    return sum(1 for column in frame.columns if column.startswith("share_"))


def per_game(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-game values computed from the traces: decision share, branching, lead changes, drama, margins."""
    players = _players(frame)
    rows = []
    for _, game in frame.iterrows():
        branching = np.asarray(game["branching"], dtype=float)
        traces = np.array([game[f"score_trace_{seat}"] for seat in range(players)], dtype=float).T
        scores = np.sort(np.array([game[f"score_{seat}"] for seat in range(players)], dtype=float))[::-1]
        row = {
            "decision_share": float(np.mean(branching > 1)) if len(branching) else math.nan,
            "branching_mean": float(np.mean(branching)) if len(branching) else math.nan,
            "winning_score": float(scores[0]),
            "margin": float(scores[0] - scores[1]) if players > 1 else math.nan,
        }
        if traces.size and len(traces) == len(branching):
            top = traces.max(axis=1)
            at_top = traces == top[:, None]
            sole = at_top.sum(axis=1) == 1
            leaders = at_top.argmax(axis=1)[sole]
            gap = top - traces[:, list(game["winners"])].mean(axis=1)
            row.update(
                lead_changes=float(np.count_nonzero(leaders[1:] != leaders[:-1])),
                drama=float(gap.mean()),
                drama_max=float(gap.max()),
                winner_trailed=float(gap.max() > 0),
            )
        else:
            row.update(lead_changes=math.nan, drama=math.nan, drama_max=math.nan, winner_trailed=math.nan)
        rows.append(row)
    columns = ["decision_share", "branching_mean", "winning_score", "margin"]
    columns += ["lead_changes", "drama", "drama_max", "winner_trailed"]
    return pd.DataFrame(rows, index=frame.index, columns=columns, dtype=float)


# ----- the metrics ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """One metric of a table: per-game values (games x columns) and how they make the metric.

    `group` is the heading it is reported under (see GROUPS); "game" holds the game's own design metrics.
    """

    name: str
    kind: Kind
    data: np.ndarray
    statistic: Statistic | None = None
    group: str = "outcomes"

    @property
    def n(self) -> int:
        return len(self.data)

    def value(self) -> float:
        if self.n == 0:
            return math.nan
        if self.statistic is not None:
            return float(self.statistic(self.data[None, :, :])[0])
        return float(np.mean(self.data[:, 0]))


def _balance(resampled: np.ndarray) -> np.ndarray:
    rates = resampled.mean(axis=1)
    return np.asarray(1.0 - (rates.max(axis=-1) - rates.min(axis=-1)))


def _sd(resampled: np.ndarray) -> np.ndarray:
    return np.asarray(resampled[..., 0].std(axis=1, ddof=1))


def _quantile(share: float) -> Statistic:
    def statistic(resampled: np.ndarray) -> np.ndarray:
        return np.asarray(np.quantile(resampled[..., 0], share, axis=1))

    return statistic


GROUPS = ("outcomes", "duration", "choices", "tension", "scores", "game")
# Solo: the score's spread, as quantiles with bootstrap intervals (beside its mean and standard deviation).
SOLO_QUANTILES = {"score 10th percentile": 0.1, "score median": 0.5, "score 90th percentile": 0.9}


def game_metric_name(column: str, taken: set[str]) -> str:
    """How a game's own metric (result column `stat_<key>`) is reported: its key in words, e.g.
    "cards completed"; "game: " goes in front if the lab already reports a metric of that name."""
    words = column.removeprefix("stat_").replace("_", " ")
    return f"game: {words}" if words in taken else words


def terminations(*frames: pd.DataFrame) -> list[str]:
    """Every way the games of these tables ended (Outcome.termination), in a fixed order."""
    found: set[str] = set()
    for frame in frames:
        found.update(str(text) for text in frame["termination"].dropna().unique())
    return sorted(found)


def metrics(frame: pd.DataFrame, ended: Sequence[str] | None = None) -> list[Metric]:
    """Every metric the table supports, in report order (see docs/metrics.md).

    A solo table (one seat) has no seat advantage, balance, shared wins, lead changes, drama or winning
    score: each would only restate that the one player "won". It gets the distribution of its score instead.
    `ended`: the terminations to report a share of games for (default: those found in the table; a
    comparison passes those of both tables).
    """
    players = _players(frame)
    solo = players == 1
    derived = per_game(frame)
    found: list[Metric] = []
    group = GROUPS[0]

    def add(name: str, kind: Kind, values: pd.Series | np.ndarray, statistic: Statistic | None = None) -> None:
        array = np.asarray(values, dtype=float)
        array = array.reshape(len(array), -1)
        array = array[~np.isnan(array).any(axis=1)]
        if len(array):
            found.append(Metric(name, kind, array, statistic, group))

    if not solo:
        shares = frame[[f"share_{seat}" for seat in range(players)]]
        for seat in range(players):
            add(f"advantage seat {seat}", "proportion", shares[f"share_{seat}"])
        add("balance", "bootstrap", shares, _balance)
        add("completion", "proportion", (frame["n_winners"] == 1) & ~frame["timeout"])
        add("shared wins", "proportion", frame["n_winners"] > 1)
    add("timeouts", "proportion", frame["timeout"])
    for termination in terminations(frame) if ended is None else ended:
        add(f"ended: {termination}", "proportion", frame["termination"] == termination)
    group = "duration"
    lengths = [("rounds", frame["rounds"].astype(float))] if frame["rounds"].notna().any() else []
    lengths += [("decisions", frame["decisions"]), ("actions", frame["actions"])]
    for name, values in lengths:
        add(f"{name} mean", "mean", values)
        add(f"{name} sd", "bootstrap", values, _sd)
    group = "choices"
    add("decision moves", "mean", derived["decision_share"])
    add("branching factor", "mean", derived["branching_mean"])
    if not solo:
        group = "tension"
        add("lead changes", "mean", derived["lead_changes"])
        add("drama", "mean", derived["drama"])
        add("drama max", "mean", derived["drama_max"])
        add("winner trailed", "proportion", derived["winner_trailed"])
    group = "scores"
    if solo:
        add("score mean", "mean", frame["score_0"])
        add("score sd", "bootstrap", frame["score_0"], _sd)
        for name, share in SOLO_QUANTILES.items():
            add(name, "bootstrap", frame["score_0"], _quantile(share))
    else:
        for seat in range(players):
            add(f"score seat {seat}", "mean", frame[f"score_{seat}"])
        add("winning score", "mean", derived["winning_score"])
        add("margin", "mean", derived["margin"])
    group = "game"
    taken = {metric.name for metric in found}
    for column in frame.columns:
        if column.startswith("stat_"):
            add(game_metric_name(column, taken), "mean", frame[column])
    return found


def _interval(metric: Metric, seed: int) -> tuple[float, float]:
    if metric.kind == "proportion":
        return wilson(float(metric.data[:, 0].sum()), metric.n)
    if metric.kind == "mean":
        return t_interval(metric.data[:, 0])
    assert metric.statistic is not None
    return bootstrap_interval(metric.data, metric.statistic, seed)


def summary(frame: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """Every metric with its 95% interval: columns group, value, low, high, method, n (games); one row per
    metric."""
    rows = {}
    for metric in metrics(frame):
        low, high = _interval(metric, seed)
        rows[metric.name] = {"group": metric.group, "value": metric.value(), "low": low, "high": high}
        rows[metric.name].update(method=METHODS[metric.kind], n=metric.n)
    columns = ["group", "value", "low", "high", "method", "n"]
    table = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    table.index.name = "metric"
    return table


def _difference(a: Metric, b: Metric, seed: int) -> tuple[float, float, float, float]:
    """(b - a, low, high, games needed per side)."""
    if a.kind == "proportion":
        difference, low, high = newcombe(float(a.data[:, 0].sum()), a.n, float(b.data[:, 0].sum()), b.n)
        return difference, low, high, games_for_proportions(a.value(), b.value())
    if a.kind == "mean":
        difference, low, high = welch(a.data[:, 0], b.data[:, 0])
        unit = float(np.var(a.data[:, 0], ddof=1) + np.var(b.data[:, 0], ddof=1))
        return difference, low, high, games_for_variance(unit, difference)
    assert a.statistic is not None
    rng = np.random.default_rng(seed)
    resampled_a = _resampled(a.data, a.statistic, rng, RESAMPLES)
    resampled_b = _resampled(b.data, a.statistic, rng, RESAMPLES)
    difference = b.value() - a.value()
    low, high = np.quantile(resampled_b - resampled_a, [ALPHA / 2, 1 - ALPHA / 2])
    unit = float(np.var(resampled_a, ddof=1)) * a.n + float(np.var(resampled_b, ddof=1)) * b.n
    return difference, float(low), float(high), games_for_variance(unit, difference)


def compare(a: pd.DataFrame, b: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """Each metric of two tables (e.g. two variants or two line-ups of bots): a, b, difference b - a with
    its 95% interval, whether that interval excludes 0, and the games per side that a difference of this
    size needs to be found significant 80% of the time. Metrics found in one table only are left out."""
    ended = terminations(a, b)
    found_a = {metric.name: metric for metric in metrics(a, ended)}
    found_b = {metric.name: metric for metric in metrics(b, ended)}
    rows = {}
    for name, metric_a in found_a.items():
        metric_b = found_b.get(name)
        if metric_b is None or metric_a.n < 2 or metric_b.n < 2:
            continue
        difference, low, high, needed = _difference(metric_a, metric_b, seed)
        rows[name] = {
            "group": metric_a.group,
            "a": metric_a.value(),
            "b": metric_b.value(),
            "difference": difference,
            "low": low,
            "high": high,
            "significant": bool(low > 0 or high < 0),
            "games_needed": needed,
            "method": DIFFERENCE_METHODS[metric_a.kind],
        }
    columns = ["group", "a", "b", "difference", "low", "high", "significant", "games_needed", "method"]
    table = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    table.index.name = "metric"
    return table


def score_distribution(frame: pd.DataFrame) -> pd.DataFrame:
    """Share of games ending with each final score, per seat (index: score; columns: seat 0, seat 1, ...)."""
    players = _players(frame)
    counts = {
        f"seat {seat}": frame[f"score_{seat}"].value_counts(normalize=True).sort_index() for seat in range(players)
    }
    table = pd.DataFrame(counts).fillna(0.0)
    table.index.name = "score"
    return table


# ----- text ------------------------------------------------------------------------------------------------


def number_text(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if math.isinf(value):
        return "inf"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    return f"{value:.3f}"


def count_text(value: float) -> str:
    if math.isnan(value):
        return "-"
    return "inf" if math.isinf(value) else f"{value:,.0f}"


def format_table(table: pd.DataFrame) -> str:
    """A summary or comparison table as aligned text (for a terminal), a heading before each group."""
    if "difference" in table.columns:
        header = ["metric", "a", "b", "b - a", "95% interval", "significant", "games needed", "method"]
        rows = [
            [
                str(name),
                number_text(row["a"]),
                number_text(row["b"]),
                number_text(row["difference"]),
                f"{number_text(row['low'])} .. {number_text(row['high'])}",
                "yes" if row["significant"] else "no",
                count_text(row["games_needed"]),
                str(row["method"]),
            ]
            for name, row in table.iterrows()
        ]
    else:
        header = ["metric", "value", "95% interval", "method", "games"]
        rows = [
            [
                str(name),
                number_text(row["value"]),
                f"{number_text(row['low'])} .. {number_text(row['high'])}",
                str(row["method"]),
                str(row["n"]),
            ]
            for name, row in table.iterrows()
        ]
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in pairs)

    lines = [line(header), "  ".join("-" * w for w in widths)]
    groups = table["group"] if "group" in table.columns else pd.Series([""] * len(table))
    previous = None
    for group, row in zip(groups, rows, strict=True):
        if group and group != previous:
            lines.append(f"[{group}]")
            previous = group
        lines.append(line(row))
    return "\n".join(lines)


def format_distribution(frame: pd.DataFrame, seat: int = 0, width: int = 40) -> str:
    """Seat `seat`'s final scores as a text histogram: each score, its share of games and a bar."""
    shares = frame[f"score_{seat}"].value_counts(normalize=True).sort_index()
    if shares.empty:
        return ""
    top = float(shares.max())
    labels = [f"{score:g}" for score in shares.index]
    label_width = max(len(label) for label in labels)
    return "\n".join(
        f"{label.rjust(label_width)}  {share:6.1%}  {'#' * max(1, round(width * share / top))}"
        for label, share in zip(labels, shares, strict=True)
    )


__all__ = [
    "Metric",
    "compare",
    "count_text",
    "format_distribution",
    "format_table",
    "game_metric_name",
    "games_for_proportions",
    "games_for_variance",
    "metrics",
    "newcombe",
    "number_text",
    "per_game",
    "score_distribution",
    "summary",
    "t_interval",
    "t_quantile",
    "terminations",
    "welch",
    "wilson",
]
