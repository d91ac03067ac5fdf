"""Draw the integration's brand images into custom_components/linn/brand/.

Original artwork, not Linn's logo: a loudspeaker cabinet (tweeter and woofer) for the icon,
and the same cabinet sending three sound waves for the logo. Sizes follow the Home Assistant
brands rules: icons 256x256 (@2x 512x512); logos landscape, 256 high (@2x 512).
The dark_ variants are for dark backgrounds. Run in the ha environment (needs Pillow):

    linn_run ha python scripts/draw_brand.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

BRAND_DIR = Path(__file__).resolve().parent.parent / "custom_components" / "linn" / "brand"
SUPERSAMPLE = 4  # drawn larger, then scaled down: smooth edges without an antialiasing API

type Colour = tuple[int, int, int, int]
type Colours = tuple[Colour, Colour]  # (cabinet and waves, cones)
LIGHT: Colours = ((31, 92, 110, 255), (255, 255, 255, 255))
DARK: Colours = ((120, 200, 214, 255), (17, 24, 28, 255))

# In units of the image height.
CABINET_WIDTH = 0.62
WOOFER_Y = 0.6
WAVE_RADII = (0.18, 0.33, 0.48)
WAVE_WIDTH = 0.07
# The logo ends where the outer wave does (brand images are trimmed).
LOGO_WIDTH = CABINET_WIDTH + WAVE_RADII[-1] + 0.01  # PIL draws an arc's width inwards


def _cabinet(draw: ImageDraw.ImageDraw, left: float, size: float, colours: Colours) -> None:
    """A speaker cabinet of height `size` from x = `left`: rounded box, tweeter, woofer."""
    body, cone = colours
    centre = left + CABINET_WIDTH * size / 2
    draw.rounded_rectangle(
        (left, 0, left + CABINET_WIDTH * size, size - 1), radius=size * 0.09, fill=body
    )
    for y, radius, fill in (
        (0.22, 0.085, cone),  # tweeter
        (WOOFER_Y, 0.2, cone),  # woofer
        (WOOFER_Y, 0.11, body),  # its dust cap
    ):
        r = radius * size
        draw.ellipse((centre - r, y * size - r, centre + r, y * size + r), fill=fill)


def _waves(draw: ImageDraw.ImageDraw, left: float, size: float, colour: Colour) -> None:
    """Three sound waves leaving the woofer's height, starting at x = `left`."""
    centre_y = WOOFER_Y * size
    for radius in WAVE_RADII:
        r = radius * size
        box = (left - r, centre_y - r, left + r, centre_y + r)
        draw.arc(box, start=-45, end=45, fill=colour, width=round(WAVE_WIDTH * size))


def _draw(width: int, height: int, colours: Colours, *, logo: bool) -> Image.Image:
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    size = height * SUPERSAMPLE
    if logo:
        _cabinet(draw, 0, size, colours)
        _waves(draw, CABINET_WIDTH * size, size, colours[0])
    else:
        _cabinet(draw, (1 - CABINET_WIDTH) * size / 2, size, colours)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def main() -> None:
    """Write every image Home Assistant's brands integration looks for."""
    BRAND_DIR.mkdir(exist_ok=True)
    for prefix, colours in (("", LIGHT), ("dark_", DARK)):
        for suffix, scale in (("", 1), ("@2x", 2)):
            height = 256 * scale
            icon = _draw(height, height, colours, logo=False)
            icon.save(BRAND_DIR / f"{prefix}icon{suffix}.png", optimize=True)
            logo = _draw(round(LOGO_WIDTH * height), height, colours, logo=True)
            logo.save(BRAND_DIR / f"{prefix}logo{suffix}.png", optimize=True)


if __name__ == "__main__":
    main()
