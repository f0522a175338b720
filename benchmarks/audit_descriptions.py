"""Audit a build's descriptions against its records, reading numbers back out of the text.

``python benchmarks/audit_descriptions.py DIR [--redescribe] [--families]`` reads
``DIR/figures/*.json``, ``DIR/descriptions.jsonl`` and ``DIR/qa.jsonl`` (with ``--redescribe``
both are made again from the records by the figgen on the path, so two versions of figgen can
be compared on the same figures) and prints::

    L2/L3 contradictions: N
    cluster panels without groups mentioned: N
    figure L2 words p95: N
    repeated sentences: N
    cut alt texts: N
    colormap names read out: N

The checks re-read the text with their own patterns and compare it with the record, not with
the writer's code:

- contradictions: a histogram's Level 2 tallest bar and its Level 3 tallest bar (or single main
  peak) more than 3% of the bin range apart, or the Level 2 one more than half a bin plus 3%
  (plus one unit of its last said digit) from the record's tallest bin; a Level 3 peak with no
  drawn peak within a bin of it
  (``scipy.signal.find_peaks`` on the counts, prominence at least 2 sqrt(height + base)); a
  stated peak or cluster count that differs from the ``n_modes`` / ``n_clusters`` /
  ``n_peaks`` answer; a scatter said to rise (fall) whose ``trend`` answer is the opposite; a
  contour whose Level 3 place of the maximum is not the ninth of the panel holding the Level
  2 point "highest near x = a, y = b";
- cluster panels: Gaussian-mixture scatter panels with two or more generating centres, every
  two of them at least 1.5 x (r_i + r_j) apart with the data range scaled to the panel's
  pixel shape (r a cluster's RMS radius, points assigned to the nearest centre), on linear
  axes, each with 5 points or more; counted when no "group" or "cluster" is in Level 3;
- repeated sentences: sentences or clauses (split at ". " and "; ") said twice in one text;
- cut alt texts: longer than 150 characters, holding "..." or an odd number of quotes, or
  quoting something that is not a whole title or label of the figure;
- colormap names: a panel's colormap name (as a word, case-sensitive) in any description of
  it or of its figure, unless the figure's own text holds that word.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from scipy.signal import find_peaks

NUMBER = r"-?\d+(?:\.\d+)?(?: times 10 to the power -?\d+)?"
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
COUNT_WORDS = {w: i for i, w in enumerate(WORDS)}
COUNT = rf"\b({'|'.join(WORDS)}|\d+)"
SPLIT = re.compile(r"(?<=[.;])\s+")


def number(text: str) -> float:
    """A number as descriptions say it: "-0.8", "2.5 times 10 to the power 7"."""
    if " times 10 to the power " in text:
        mantissa, exponent = text.split(" times 10 to the power ")
        return float(mantissa) * 10 ** int(exponent)
    return float(text)


def last_digit(text: str) -> float:
    """The place of a said number's last significant digit: "0.60" 0.01, "150" 10, "4" 1."""
    mantissa, _, exponent = text.partition(" times 10 to the power ")
    digits = mantissa.lstrip("-")
    if "." in digits:
        unit = 10.0 ** -len(digits.split(".")[1])
    else:
        unit = 10.0 ** (len(digits) - len(digits.rstrip("0"))) if digits.strip("0") else 1.0
    return unit * 10 ** int(exponent or 0)


def counted(word: str) -> int:
    return COUNT_WORDS[word] if word in COUNT_WORDS else int(word)


def load(directory: Path, redescribe: bool) -> tuple[list[dict], list[dict], list[dict]]:
    records = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((directory / "figures").glob("*.json"))
    ]
    if redescribe:
        from figgen.vqa import describe_record, questions_for_record

        rows = [row for r in records for row in describe_record(r)]
        qa = [
            item.to_dict() if hasattr(item, "to_dict") else item
            for r in records
            for item in questions_for_record(r)
        ]
        return records, rows, qa

    def lines(name: str) -> list[dict]:
        path = directory / name
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    return records, lines("descriptions.jsonl"), lines("qa.jsonl")


def _answers(qa: list[dict]) -> dict[tuple[str, int, str], Any]:
    return {
        (q["figure_id"], q["panel"], q["family"]): q["answer"]
        for q in qa
        if q.get("panel") is not None
    }


def histogram_contradictions(panel: dict, l2: str, l3: str, modes: Any) -> int:
    counts = np.asarray(panel["data"]["counts"], dtype=float)
    edges = np.asarray(panel["data"]["bin_edges"], dtype=float)
    span, width = float(edges[-1] - edges[0]), float(np.diff(edges).max())
    tol = 0.03 * span
    found = 0
    top = re.search(rf"tallest bar holds about {NUMBER} at about ({NUMBER})", l2)
    if top:
        x2 = number(top.group(1))
        centre = (edges[int(np.argmax(counts))] + edges[int(np.argmax(counts)) + 1]) / 2
        # a reading rounded to the axis's tick precision may be off by one last digit
        found += abs(x2 - centre) > width / 2 + tol + last_digit(top.group(1))
        said = re.search(
            rf"(?:tallest(?: bar)? is near|one main peak, near|lie near) ({NUMBER})", l3
        )
        if said:
            found += abs(number(said.group(1)) - x2) > tol
    peaks = re.search(
        rf"{COUNT} (?:separate |small |main )?peaks?, near ((?:{NUMBER}(?:, | and )?)+)", l3
    )
    if peaks:
        stated = [number(v) for v in re.findall(NUMBER, peaks.group(2))]
        padded = np.concatenate([[0.0], counts, [0.0]])
        at, props = find_peaks(padded, prominence=0)
        base = padded[at] - props["prominences"]
        real = at[props["prominences"] >= 2 * np.sqrt(padded[at] + base)] - 1
        centres = (edges[:-1] + edges[1:]) / 2
        for value in stated:
            near = [i for i in real if abs(centres[i] - value) <= width + tol]
            found += not near
        if modes is not None:
            found += counted(peaks.group(1)) != modes
    return found


def scatter_contradictions(l3: str, clusters: Any, trend: Any) -> int:
    found = 0
    groups = re.search(rf"{COUNT} (?:separate clusters?|groups?)", l3)
    if clusters is not None:  # one cluster: the text must not claim groups
        said = counted(groups.group(1)) if groups else 1
        found += said != clusters
    if trend is not None:
        rises, falls = re.search(r"\brises?\b", l3), re.search(r"\bfalls?\b", l3)
        found += bool(rises if trend == "decreasing" else falls) and not (rises and falls)
    return found


def contour_contradictions(panel: dict, l2: str, l3: str, peaks: Any) -> int:
    found = 0
    point = re.search(rf"highest near x = ({NUMBER})[^,]*, y = ({NUMBER})", l2)
    place = re.search(r"highest near (the [a-z ]+?)(?: and|\.|;|$)", l3)
    if point and place:
        x, y = np.asarray(panel["data"]["x"], float), np.asarray(panel["data"]["y"], float)
        u = (number(point.group(1)) - x.min()) / (np.ptp(x) or 1)
        v = (number(point.group(2)) - y.min()) / (np.ptp(y) or 1)

        def third(t: float) -> int:
            return min(int(3 * min(max(t, 0.0), 0.999)), 2)

        said = place_of(place.group(1))
        # a point read off at the ticks' precision may sit on the border of two ninths
        found += not any(
            said == (third(v + dv), third(u + du))
            for dv in (-0.05, 0, 0.05)
            for du in (-0.05, 0, 0.05)
        )
    stated = re.search(rf"{COUNT} separate peaks?", l3)
    if peaks is not None and stated:
        found += counted(stated.group(1)) != peaks
    return found


def place_of(words: str) -> tuple[int, int]:
    """(row, column) of a ninth of the panel, 0 = bottom / left, from its words in any form:
    "the upper left", "the upper left corner", "the right edge", "the middle of the top edge"."""
    vertical = (
        2 if re.search(r"upper|top", words) else 0 if re.search(r"lower|bottom", words) else 1
    )
    horizontal = 2 if "right" in words else 0 if "left" in words else 1
    return vertical, horizontal


def drawn_as_clusters(panel: dict, aspect: float) -> bool:
    """Two or more mixture components at least 1.5 times their RMS radii apart (a looser
    rule than the n_clusters question's, to find descriptions that miss visible clusters)."""
    import figgen.kinds  # noqa: F401  (registers the kinds' data classes)
    from figgen.schema.panel import PanelRecord
    from figgen.vqa.api.reading.trends import separated_mixture

    n = separated_mixture(PanelRecord.from_dict(panel), aspect, min_points=5, gap=1.5)
    return n is not None and n >= 2


def aspect(record: dict, index: int) -> float:
    for e in record.get("elements", []):
        if e["kind"] == "panel" and e.get("panel") == index:
            x0, y0, x1, y1 = e["bbox"]
            return (y1 - y0) / (x1 - x0) if x1 > x0 and y1 > y0 else 1.0
    return 1.0


def cut_alt(alt: str, record: dict) -> bool:
    from figgen.words.spoken import spoken

    if len(alt) > 150 or "..." in alt or "\u2026" in alt or alt.count('"') % 2:
        return True
    whole = {
        spoken(p[key])
        for p in record["panels"]
        for key in ("title", "xlabel", "ylabel")
        if p.get(key)
    }
    return any(quoted not in whole for quoted in alt.split('"')[1::2])


def repeats(text: str) -> int:
    parts = [p.strip().rstrip(".;").lower() for p in SPLIT.split(text) if p.strip()]
    parts = [p.split(": ", 1)[-1] for p in parts]  # "The left panel: a" repeats a
    return sum(n - 1 for n in Counter(parts).values() if n > 1)


def audit(
    records: list[dict], rows: list[dict], qa: list[dict], problems: list[str] | None = None
) -> dict[str, float]:
    """The six counts; with ``problems``, one line per flagged panel or text appended to it."""
    flagged = problems if problems is not None else []
    answers = _answers(qa)
    by_panel: dict[tuple[str, int | None, int], dict] = {
        (r["figure_id"], r["panel"], r["level"]): r for r in rows
    }
    contradictions = clusters = cut = named = 0
    figure_words = []
    repeated = sum(repeats(r["text"]) for r in rows)
    for record in records:
        fid = record["id"]
        figure_text = " ".join(
            str(p.get(k) or "") for p in record["panels"] for k in ("title", "xlabel", "ylabel")
        )
        level2 = by_panel.get((fid, None, 2))
        if level2:
            figure_words.append(len(level2["text"].split()))
        alts = {r["alt_text"] for r in rows if r["figure_id"] == fid}
        cut += sum(cut_alt(a, record) for a in alts)
        figure_rows = [r for r in rows if r["figure_id"] == fid]
        for panel in record["panels"]:
            i = panel["index"]
            l2 = (by_panel.get((fid, i, 2)) or {}).get("text", "")
            l3 = (by_panel.get((fid, i, 3)) or {}).get("text", "")
            asked = {
                f: answers.get((fid, i, f)) for f in ("n_modes", "n_clusters", "trend", "n_peaks")
            }
            before = contradictions
            if panel["kind"] == "histogram":
                contradictions += histogram_contradictions(panel, l2, l3, asked["n_modes"])
            elif panel["kind"] == "scatter":
                contradictions += scatter_contradictions(l3, asked["n_clusters"], asked["trend"])
                if drawn_as_clusters(panel, aspect(record, i)) and not re.search(
                    r"group|cluster", l3
                ):
                    clusters += 1
                    flagged.append(f"{fid} panel {i} clusters: {l3}")
            elif panel["kind"] == "contour":
                contradictions += contour_contradictions(panel, l2, l3, asked["n_peaks"])
            if contradictions > before:
                flagged.append(f"{fid} panel {i} contradiction: {asked} | {l2} | {l3}")
            cmap = (panel.get("style") or {}).get("colormap")
            if cmap and not re.search(rf"\b{re.escape(cmap)}\b", figure_text):
                pattern = re.compile(rf"\b{re.escape(cmap)}\b")
                named += sum(
                    bool(pattern.search(r["text"])) for r in figure_rows if r["panel"] in (None, i)
                )
    return {
        "L2/L3 contradictions": contradictions,
        "cluster panels without groups mentioned": clusters,
        "figure L2 words p95": float(np.percentile(figure_words, 95)) if figure_words else 0.0,
        "repeated sentences": repeated,
        "cut alt texts": cut,
        "colormap names read out": named,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--redescribe", action="store_true", help="describe and ask again")
    parser.add_argument("--families", action="store_true", help="also print questions per family")
    parser.add_argument("--show", action="store_true", help="also print each flagged panel")
    args = parser.parse_args()
    records, rows, qa = load(args.directory, args.redescribe)
    problems: list[str] = []
    for name, value in audit(records, rows, qa, problems).items():
        print(f"{name}: {value:g}")
    if args.show:
        print("\n".join(problems))
    if args.families:
        for family, n in sorted(Counter(q["family"] for q in qa).items()):
            print(f"  {family}: {n}")


if __name__ == "__main__":
    main()
