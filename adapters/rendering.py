"""What the adapters draw: the board as any spectator may see it, as text or as an RGB image.

The view is the engine's observation for a seat that is not playing (``Game.observation`` of
seat ``players``): everything public, nothing hidden from anyone shown -- face-down values
print as ``?``, hidden zones as their size, hidden scores as None.  The drawing is the terminal
human seat's (``provost.interpreter.agents.board_text``), so a rule file's new building appears in
it without code.  The image is that text drawn with Pillow (matplotlib's own dependency); an
environment asks for it only with ``render_mode="rgb_array"``.
"""
from __future__ import annotations

import io

import numpy as np


def board_text(game, width: int = 110) -> str:
    """The spectator's board as plain text (no colours, no control characters)."""
    from rich.console import Console

    from provost.interpreter.agents.board_text import board_renderable
    from provost.interpreter.boardview import board_view

    view = board_view(game.rs.decls, game.observation(game.s.players))
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, force_terminal=False).print(board_renderable(view))
    head = "to move: %s; scores: %s%s" % (
        "nobody" if game.current_player() is None else "player %d" % game.current_player(),
        game.public_scores(), " (finished)" if game.finished else "")
    return head + "\n" + buf.getvalue()


def require_pillow() -> None:
    try:
        import PIL  # noqa: F401
    except ImportError:
        raise ValueError("render_mode 'rgb_array' needs Pillow: pip install pillow (or provost[plot])") from None


def board_image(game, width: int = 110) -> np.ndarray:
    """The spectator's board as an RGB array (height x width x 3, uint8)."""
    from PIL import Image, ImageDraw, ImageFont

    lines = board_text(game, width).splitlines()
    font = ImageFont.load_default()
    left, top, right, bottom = font.getbbox("M")
    cw, ch = max(right - left, 6), max(bottom - top, 11) + 3
    img = Image.new("RGB", (8 + cw * width, 8 + ch * len(lines)), "white")
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((4, 4 + i * ch), line, fill="black", font=font)
    return np.asarray(img, dtype=np.uint8)
