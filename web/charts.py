"""Small line charts drawn as inline SVG on the server: no chart library, nothing to load, works on a wall."""

from dataclasses import dataclass

WIDTH, HEIGHT, PAD_L, PAD_R, PAD_T, PAD_B = 320, 160, 30, 8, 8, 18


@dataclass
class Series:
    label: str
    values: list[int | None]
    css: str  # "ns", "ew", "a"...


def line_chart(xs: list, series: list[Series], *, invert: bool = False, floor: int = 0, guide: int | None = None,
               ceiling: int | None = None) -> dict:
    """Return what the chart template draws: each series' polyline points, the axes' ticks, a guide line.

    ``invert`` puts the smallest value at the top (ranks); ``guide`` draws a dashed line (a target).
    """
    values = [v for s in series for v in s.values if v is not None] + ([guide] if guide else [])
    lo = min([floor, *values])
    hi = max([*values, ceiling or 0] or [1])
    if hi == lo:
        hi = lo + 1
    n = max(len(xs), 1)
    inner_w, inner_h = WIDTH - PAD_L - PAD_R, HEIGHT - PAD_T - PAD_B

    def x_at(i):
        return round(PAD_L + (inner_w * i / (n - 1) if n > 1 else inner_w / 2), 1)

    def y_at(v):
        frac = (v - lo) / (hi - lo)
        return round(PAD_T + (inner_h * frac if invert else inner_h * (1 - frac)), 1)

    drawn = []
    for s in series:
        pts = [(x_at(i), y_at(v)) for i, v in enumerate(s.values) if v is not None]
        drawn.append({"label": s.label, "css": s.css, "points": " ".join(f"{x},{y}" for x, y in pts),
                      "dots": [{"x": x, "y": y, "v": v} for (x, y), v in
                               zip(pts, [v for v in s.values if v is not None], strict=True)]})
    step = max(1, (n + 9) // 10)
    return {
        "width": WIDTH, "height": HEIGHT, "series": drawn,
        "x_ticks": [{"x": x_at(i), "label": xs[i]} for i in range(0, n, step)],
        "y_ticks": [{"y": y_at(v), "label": v} for v in sorted({lo, hi})],
        "guide": None if guide is None else y_at(guide),
        "left": PAD_L, "right": WIDTH - PAD_R, "bottom": HEIGHT - PAD_B, "top": PAD_T,
    }
