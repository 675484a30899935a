"""Glyphs: small shapes drawn in a cell so that no colour is told by colour alone.

Each glyph is SVG path data in a unit box (0..1 both ways), filled with the even-odd rule.
"""

from __future__ import annotations

import math


def _circle(cx: float, cy: float, r: float) -> str:
    arc = f"A{r:.3f} {r:.3f} 0 1 0"
    return f"M{cx - r:.3f} {cy:.3f}{arc} {cx + r:.3f} {cy:.3f}{arc} {cx - r:.3f} {cy:.3f}Z"


def _star(points: int = 5, outer: float = 0.44, inner: float = 0.19) -> str:
    corners = []
    for i in range(2 * points):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / points - math.pi / 2
        corners.append(f"{0.5 + radius * math.cos(angle):.3f} {0.53 + radius * math.sin(angle):.3f}")
    return "M" + "L".join(corners) + "Z"


def _cycle(arrows: int = 2, outer: float = 0.4, inner: float = 0.25, span: float = 110.0) -> str:
    """Arrows chasing each other round a ring (recycling): each a band of the ring ending in a head."""

    def at(radius: float, degrees: float) -> str:
        angle = math.radians(degrees)
        return f"{0.5 + radius * math.cos(angle):.3f} {0.5 + radius * math.sin(angle):.3f}"

    mid, flare = (outer + inner) / 2, 0.09
    out = []
    for k in range(arrows):
        a0 = k * 360 / arrows + 15
        a1 = a0 + span
        out.append(
            f"M{at(outer, a0)}A{outer} {outer} 0 0 1 {at(outer, a1)}L{at(outer + flare, a1)}L{at(mid, a1 + 38)}"
            f"L{at(inner - flare, a1)}L{at(inner, a1)}A{inner} {inner} 0 0 0 {at(inner, a0)}Z"
        )
    return "".join(out)


GLYPHS: dict[str, str] = {
    "triangle": "M.5 .12L.9 .85L.1 .85Z",
    "tent": "M.5 .1L.92 .88L.08 .88ZM.5 .48L.62 .88L.38 .88Z",
    "wave": "M.05 .4Q.2 .25 .35 .4T.65 .4T.95 .4V.6Q.8 .45 .65 .6T.35 .6T.05 .6Z",
    "tree": _circle(0.5, 0.38, 0.3) + "M.43 .62H.57V.94H.43Z",
    "person": _circle(0.5, 0.25, 0.14) + "M.2 .94Q.2 .44 .5 .44Q.8 .44 .8 .94Z",
    "sun": _circle(0.5, 0.5, 0.2)
    + "M.46 .03H.54V.22H.46ZM.46 .78H.54V.97H.46ZM.03 .46H.22V.54H.03ZM.78 .46H.97V.54H.78Z",
    "diamond": "M.5 .08L.92 .5L.5 .92L.08 .5Z",
    "cross": "M.38 .08H.62V.38H.92V.62H.62V.92H.38V.62H.08V.38H.38Z",
    "square": "M.15 .15H.85V.85H.15Z",
    "circle": _circle(0.5, 0.5, 0.38),
    "dot": _circle(0.5, 0.5, 0.16),
    "paw": _circle(0.5, 0.7, 0.19)
    + _circle(0.2, 0.42, 0.09)
    + _circle(0.38, 0.24, 0.09)
    + _circle(0.62, 0.24, 0.09)
    + _circle(0.8, 0.42, 0.09),
    "recycle": "M.5 .08L.92 .84L.08 .84ZM.5 .36L.3 .72L.7 .72Z",
    "star": _star(),
    "recycling": _cycle(3),
    # A seedling, two leaves on a stem (ClipCut Parks' gardener token).
    "sprout": "M.45 .56H.55V.94H.45ZM.47 .56Q.08 .6 .08 .2Q.44 .18 .47 .56ZM.53 .46Q.56 .1 .92 .1Q.94 .48 .53 .46Z",
    # Swap Clops likes (with "sun" and "star" above).
    "apple": _circle(0.5, 0.58, 0.32) + "M.47 .08H.55V.3H.47ZM.56 .16Q.72 .06 .82 .18Q.7 .28 .56 .22Z",
    "moon": "M.5 .08A.42 .42 0 0 0 .5 .92A.26 .42 0 0 1 .5 .08Z",
    "book": "M.1 .2H.46V.86H.1ZM.54 .2H.9V.86H.54Z",
    # Cutterland's bonus tokens: a tower with battlements, a brick wall, an arched bridge.
    "tower": "M.25 .12H.37V.24H.44V.12H.56V.24H.63V.12H.75V.4H.68V.9H.32V.4H.25Z",
    "wall": "M.06 .2H.46V.44H.06ZM.54 .2H.94V.44H.54ZM.06 .52H.26V.76H.06ZM.34 .52H.66V.76H.34ZM.74 .52H.94V.76H.74Z",
    "bridge": "M.04 .34H.96V.76H.8Q.8 .5 .5 .5Q.2 .5 .2 .76H.04Z",
    # Paper World's scissors: two crossed blades drawn as one outline (an overlap would be a hole under the
    # even-odd rule), over two finger rings that stop just short of the blades.
    "scissors": "M.22 .03L.5 .334L.78 .03L.581 .422L.68 .53L.63 .62L.5 .58L.37 .62L.32 .53L.419 .422Z"
    + _circle(0.26, 0.8, 0.19)
    + _circle(0.26, 0.8, 0.095)
    + _circle(0.74, 0.8, 0.19)
    + _circle(0.74, 0.8, 0.095),
}
