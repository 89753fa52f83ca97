"""Small line charts drawn as inline SVG on the server: no chart library, nothing to load, works on a wall.

Every number that lands in an SVG attribute (a coordinate, a length, the viewBox) leaves here as a string
written with a decimal point, whatever the page's language: the template's localization would otherwise write
``cx="30,0"`` in Dutch, French, Spanish and Catalan, which SVG cannot read (no dot, no line). Only the
tick labels and the tooltips, which people read, are left as numbers for the template to localize.
"""

from dataclasses import dataclass

WIDTH, HEIGHT, PAD_L, PAD_R, PAD_T, PAD_B = 320, 160, 30, 8, 8, 18


@dataclass
class Series:
    label: str
    values: list[int | None]
    css: str  # "ns", "ew", "a"...


def svg_number(value: float) -> str:
    """Return a number as SVG reads it: a decimal point, at most one decimal, no thousands separator."""
    text = "%.1f" % value  # %-formatting ignores the locale, unlike the template's localization
    return text[:-2] if text.endswith(".0") else text


def line_chart(xs: list, series: list[Series], *, invert: bool = False, floor: int = 0, guide: int | None = None,
               ceiling: int | None = None) -> dict:
    """Return what the chart template draws: each series' polyline points, the axes' ticks, a guide line.

    ``invert`` puts the smallest value at the top (ranks); ``guide`` draws a dashed line (a target). Every
    coordinate is a string (``svg_number``), ready for an SVG attribute in any language.
    """
    values = [v for s in series for v in s.values if v is not None] + ([guide] if guide else [])
    lo = min([floor, *values])
    hi = max([*values, ceiling or 0] or [1])
    if hi == lo:
        hi = lo + 1
    n = max(len(xs), 1)
    inner_w, inner_h = WIDTH - PAD_L - PAD_R, HEIGHT - PAD_T - PAD_B

    def x_at(i):
        return svg_number(PAD_L + (inner_w * i / (n - 1) if n > 1 else inner_w / 2))

    def y_at(v):
        frac = float(v - lo) / float(hi - lo)
        return svg_number(PAD_T + (inner_h * frac if invert else inner_h * (1 - frac)))

    drawn = []
    for s in series:
        pts = [(x_at(i), y_at(v)) for i, v in enumerate(s.values) if v is not None]
        drawn.append({"label": s.label, "css": s.css, "points": " ".join(f"{x},{y}" for x, y in pts),
                      "dots": [{"x": x, "y": y, "v": v} for (x, y), v in
                               zip(pts, [v for v in s.values if v is not None], strict=True)]})
    step = max(1, (n + 9) // 10)
    return {
        "width": svg_number(WIDTH), "height": svg_number(HEIGHT), "series": drawn,
        "x_ticks": [{"x": x_at(i), "label": xs[i]} for i in range(0, n, step)],
        "y_ticks": [{"y": y_at(v), "label": v} for v in sorted({lo, hi})],
        "guide": None if guide is None else y_at(guide),
        "left": svg_number(PAD_L), "right": svg_number(WIDTH - PAD_R), "bottom": svg_number(HEIGHT - PAD_B),
        "top": svg_number(PAD_T), "tick_x": svg_number(PAD_L - 4), "x_tick_y": svg_number(HEIGHT),
    }
