#!/usr/bin/env python3
"""Writes the QR code fixtures QRCodeTests.swift checks the Swift encoder against.

Every matrix here comes from segno (https://pypi.org/project/segno/), an implementation
independent of ours: `python3 -m pip install segno`, then run this script from any directory.
See README.md for what each file holds and why the mask is chosen the way it is.
"""
import os

import segno
from segno import consts, encoder


def write_padding_bits(buff, version, length):
    """0 bits to the next codeword boundary, none when the stream ends on one (ISO/IEC 18004
    7.4.10). segno 1.6.6 adds eight when it already ends on one
    (https://github.com/heuer/segno/issues/148), which in byte mode is whenever the four-bit
    terminator fits: an extra 0x00 codeword before the pad codewords. Readers stop at the
    terminator, so segno's symbols still read, but they are not the standard's; this replaces
    segno's function with the standard's rule, which is all that is changed in segno."""
    if version not in (consts.VERSION_M1, consts.VERSION_M3):
        buff.extend([0] * (-length % 8))


encoder.write_padding_bits = write_padding_bits

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = "LMQH"

ENROLL_URL = "https://mdm.example.com/mdm/enroll/" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_aBcDe"
LONG_TEXT = (
    "Payload Console enrollment: open this link on the iPhone or iPad you want to manage, "
    "install the profile it offers (Réglages → Général → VPN et gestion de l’appareil), "
    "and the device checks in within a minute. The link works once and expires after seven days; "
    "ask your administrator for a new one if it has."
)

# (file name, text, level): versions 1 and 2, the enrollment link at each level, and a text
# that needs a version above 10 (so a 16-bit character count and version information).
NAMED = [
    ("short-v1-L", "Payload Console", "L"),
    ("short-url-v2-M", "https://example.com/", "M"),
    ("enroll-L", ENROLL_URL, "L"),
    ("enroll-M", ENROLL_URL, "M"),
    ("enroll-Q", ENROLL_URL, "Q"),
    ("enroll-H", ENROLL_URL, "H"),
    ("long-text-M", LONG_TEXT, "M"),
]


def make(data, level, version=None, mask=None):
    """segno in byte mode on the UTF-8 bytes, at exactly `level` (segno would otherwise raise
    the level when the data leaves room)."""
    return segno.make_qr(data, error=level, version=version, mode="byte", mask=mask, boost_error=False)


def complete_symbol_mask(data, level, version):
    """The mask the standard's penalty rules choose when, as ISO/IEC 18004:2015 7.8.3.1 says,
    "the area to be evaluated is the complete symbol": each candidate scored with its own format
    information, version information and dark module drawn, by segno's own scorer; the lowest
    score wins, the lower mask number on a tie. (segno's automatic choice scores the symbol
    with those areas left light; see README.md.)"""
    scores = [encoder.evaluate_mask(make(data, level, version, mask).matrix, *(2 * [17 + 4 * version]))
              for mask in range(8)]
    return scores.index(min(scores))


def rows(code):
    return ["".join(str(bit) for bit in row) for row in code.matrix]


def fnv1a64(lines):
    """FNV-1a (64-bit) of the rows, each followed by a line feed: a fingerprint short enough to
    keep one line per version and level."""
    value = 0xCBF29CE484222325
    for byte in "".join(line + "\n" for line in lines).encode("ascii"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


def version_text(version, level, count):
    """A text of `count` printable ASCII characters, different for each version and level;
    QRCodeTests.swift builds the same."""
    return "".join(chr(0x21 + (i * 31 + version * 7 + LEVELS.index(level) * 3) % 94) for i in range(count))


def byte_capacity(version, level):
    """The most bytes segno fits in `version` at `level`, found by bisection."""
    low, high = 1, 3000
    while low < high:
        middle = (low + high + 1) // 2
        try:
            make(b"a" * middle, level, version, mask=0)
            low = middle
        except segno.DataOverflowError:
            high = middle - 1
    return low


def write_named():
    for name, text, level in NAMED:
        data = text.encode("utf-8")
        automatic = make(data, level)
        version = automatic.version
        mask = complete_symbol_mask(data, level, version)
        code = make(data, level, version, mask)
        assert code.version == version and code.error == level and code.mode == "byte"
        header = [
            f"# segno {segno.__version__} (its padding bug corrected), byte mode on the UTF-8 bytes, smallest version,",
            "# level exactly as asked; mask: the lowest penalty on the complete symbol, segno's own choice beside it.",
            "# See README.md.",
            f"text={text}",
            f"level={level}",
            f"version={version}",
            f"mask={mask}",
            f"segno-automatic-mask={automatic.mask}",
        ]
        with open(os.path.join(HERE, name + ".txt"), "w", encoding="utf-8") as out:
            out.write("\n".join(header + rows(code)) + "\n")
        print(name, "version", version, "mask", mask, "segno automatic", automatic.mask)


def write_versions():
    lines = [
        f"# segno {segno.__version__}: for each version and level, the most bytes that fit, and the symbol of a",
        "# text that long (version_text in make_fixtures.py), which needs exactly that version.",
        "# version level capacity mask segno-automatic-mask fnv1a64-of-rows",
    ]
    for version in range(1, 41):
        for level in LEVELS:
            capacity = byte_capacity(version, level)
            data = version_text(version, level, capacity).encode("ascii")
            automatic = make(data, level)
            assert automatic.version == version, (version, level)
            mask = complete_symbol_mask(data, level, version)
            code = make(data, level, version, mask)
            lines.append(f"{version} {level} {capacity} {mask} {automatic.mask} {fnv1a64(rows(code))}")
        print("version", version, flush=True)
    with open(os.path.join(HERE, "versions.txt"), "w", encoding="ascii") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_named()
    write_versions()
