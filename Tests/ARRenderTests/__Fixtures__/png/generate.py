#!/usr/bin/python3
"""Writes the PNG fixtures with pypng (Debian python3-png 0.20220715), an encoder that shares
no code with libpng. Run once from this folder: /usr/bin/python3 generate.py"""
import png

# 3x2 palette image, 8-bit indices, with a tRNS chunk (alpha per palette entry).
palette = [(255, 0, 0, 255), (0, 128, 255, 128), (10, 20, 30, 0)]
with open("palette-trns.png", "wb") as f:
    png.Writer(3, 2, palette=palette, bitdepth=8).write(f, [[0, 1, 2], [2, 1, 0]])

# 2x2 gray + alpha, 8-bit.
with open("gray-alpha.png", "wb") as f:
    png.Writer(2, 2, greyscale=True, alpha=True, bitdepth=8).write(
        f, [[0, 255, 128, 64], [255, 0, 37, 200]])

# 3x2 RGB, 16-bit: values around the rounding edges of v*255/65535.
with open("rgb16.png", "wb") as f:
    png.Writer(3, 2, greyscale=False, bitdepth=16).write(
        f, [[65535, 0, 32896, 257, 32767, 32768, 384, 386, 1],
            [128, 129, 65535, 0, 0, 0, 65280, 65406, 65407]])

# 10x10 RGB, 8-bit, Adam7 interlaced: pixel (u, v) = (25u, 25v, 255 - 2uv).
with open("adam7.png", "wb") as f:
    rows = [[c for u in range(10) for c in (25 * u, 25 * v, 255 - 2 * u * v)] for v in range(10)]
    png.Writer(10, 10, greyscale=False, bitdepth=8, interlace=True).write(f, rows)

# 3x1 16-bit gray (a depth map in millimetres).
with open("gray16.png", "wb") as f:
    png.Writer(3, 1, greyscale=True, bitdepth=16).write(f, [[0, 1000, 65535]])
