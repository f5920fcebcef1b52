#!/usr/bin/env python3
"""Makes the cover fixtures once, with real encoders (Pillow for JPEG and WebP, pypng for the
PNG variants Pillow cannot write: 16-bit RGB, interlaced). The files are committed: the tests
read them and need neither library. Run in a throwaway venv: pip install Pillow pypng."""
import os
import struct
import zlib

import png
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
RED, BLUE = (220, 20, 30), (20, 40, 210)


def path(name):
    return os.path.join(here, name)


def halves(width=64, height=64, left=RED, right=BLUE):
    image = Image.new("RGB", (width, height))
    for y in range(height):
        for x in range(width):
            image.putpixel((x, y), left if x < width // 2 else right)
    return image


def rows(image, scale=1):
    """The image's rows as flat channel lists, each value multiplied by `scale` (16-bit)."""
    width, height = image.size
    bands = len(image.getbands())
    data = list(image.getdata())
    out = []
    for y in range(height):
        row = []
        for x in range(width):
            pixel = data[y * width + x]
            row += [v * scale for v in (pixel if bands > 1 else (pixel,))]
        out.append(row)
    return out


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


image = halves()
image.save(path("red-blue.jpg"), quality=92)
image.save(path("red-blue-progressive.jpg"), quality=92, progressive=True)
image.convert("CMYK").save(path("red-blue-cmyk.jpg"), quality=92)
image.save(path("red-blue.png"))
image.quantize(colors=4).save(path("red-blue-palette.png"))
image.save(path("red-blue.webp"))
halves(128, 32).save(path("wide.png"))
halves(32, 128).save(path("tall.jpg"), quality=92)
halves(left=(40, 40, 40), right=(220, 220, 220)).convert("L").save(path("grey.jpg"), quality=92)

# Grey with alpha: left dark and opaque, right light and half transparent.
grey = Image.new("LA", (64, 64))
for y in range(64):
    for x in range(64):
        grey.putpixel((x, y), (40, 255) if x < 32 else (220, 128))
png.Writer(64, 64, greyscale=True, alpha=True).write(open(path("grey-alpha.png"), "wb"), rows(grey))
png.Writer(64, 64, greyscale=False, bitdepth=16).write(open(path("red-blue-16bit.png"), "wb"), rows(image, 257))
png.Writer(64, 64, greyscale=False, interlace=True).write(open(path("red-blue-interlaced.png"), "wb"), rows(image))

Image.new("RGB", (1, 1), RED).save(path("one-pixel.png"))

# Broken: a JPEG cut in its scan, a PNG whose image data is damaged (its CRC no longer agrees).
jpeg = open(path("red-blue.jpg"), "rb").read()
open(path("truncated.jpg"), "wb").write(jpeg[: len(jpeg) * 2 // 3])
data = bytearray(open(path("red-blue.png"), "rb").read())
idat = data.index(b"IDAT")
for i in range(idat + 8, idat + 24):
    data[i] ^= 0x5A
open(path("corrupt.png"), "wb").write(bytes(data))

# Absurd sizes, declared by headers over a few bytes of data: nothing may allocate for them.
signature = b"\x89PNG\r\n\x1a\n"
ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
idat = zlib.compress(b"\x00" + b"\x00" * 300)
open(path("huge.png"), "wb").write(signature + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
# JPEG's frame header holds 16-bit sizes: 65,000 × 65,000 is its largest absurdity.
jpeg = bytearray(jpeg)
sof = jpeg.index(b"\xff\xc0")
jpeg[sof + 5 : sof + 9] = struct.pack(">HH", 65000, 65000)
open(path("huge.jpg"), "wb").write(bytes(jpeg))
