"""Home Assistant serves the integration's own brand images (custom_components/linn/brand/)."""

from http import HTTPStatus
import io
from pathlib import Path

from homeassistant.components.brands.const import ALLOWED_IMAGES
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from PIL import Image
import pytest
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.linn.const import DOMAIN

BRAND_DIR = Path(__file__).parents[2] / "custom_components" / DOMAIN / "brand"


@pytest.mark.parametrize("image", ["icon.png", "dark_logo@2x.png"])
async def test_home_assistant_serves_our_brand_image(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, image: str
) -> None:
    """Not the placeholder from the brands CDN: the file shipped with the integration."""
    assert await async_setup_component(hass, "brands", {})
    client = await hass_client()
    response = await client.get(f"/api/brands/integration/{DOMAIN}/{image}")
    assert response.status == HTTPStatus.OK
    assert response.content_type == "image/png"
    assert await response.read() == (BRAND_DIR / image).read_bytes()


def test_every_brand_image_home_assistant_asks_for_is_shipped() -> None:
    assert {path.name for path in BRAND_DIR.iterdir()} == ALLOWED_IMAGES


@pytest.mark.parametrize("image", sorted(ALLOWED_IMAGES))
def test_brand_image_meets_the_brands_size_rules(image: str) -> None:
    """home-assistant/brands: PNG; icons square 256 (hDPI 512); logos' shortest side 128-256
    (hDPI 256-512), landscape preferred; transparency preferred."""
    with Image.open(io.BytesIO((BRAND_DIR / image).read_bytes())) as picture:
        assert picture.format == "PNG"
        assert picture.mode == "RGBA"
        width, height = picture.size
    hdpi = "@2x" in image
    if "icon" in image:
        assert (width, height) == ((512, 512) if hdpi else (256, 256))
    else:
        low, high = (256, 512) if hdpi else (128, 256)
        assert low <= min(width, height) <= high
        assert width >= height
