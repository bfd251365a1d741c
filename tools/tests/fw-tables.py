#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# fw-tables.py OUTDIR: made-up ACPI tables for macsupport-report --firmware
# (tools/tests/test-macsupport-report.sh, qemu-tests/host/firmware-check).
# Each folder of OUTDIR holds DSDT.aml and SSDT*.aml as a Mac dump does,
# assembled here in the shapes of Apple's tables (names, methods, GPEs;
# no code of theirs):
#
#   classic-tb1/    an I/O-port APP000B "gmux" (GMGP 0x16) and one
#                   Thunderbolt 1 NHI (XRPE, XRIL, XRIN 0x14): MacBookPro8,2
#   t2-tb3/         a memory APP000B "gpuc" and two Titan Ridge NHIs (TRPE,
#                   RTPC writing RTBT, root port _PS3, _E4B/_E4C in the root
#                   ports' scopes): MacBookPro15,1
#   quirks/         _L06, XHC1 with _PRW 0x0D and LID0 with _PRW 0x23 in the
#                   shapes MacBookPro11,3's quirk rows name, and a Falcon
#                   Ridge NHI (TRPE, XRIL, XRIN)
#   bad-short/      a DSDT shorter than a table header
#   bad-length/     a DSDT whose Length runs past the end of the file
#   bad-checksum/   a DSDT whose bytes do not sum to 0
#   bad-aml/        a DSDT of garbage AML (valid header and checksum)
#   bad-trailing/   a DSDT followed by bytes after its Length
#   bad-signature/  a "FACP" named DSDT.aml
#   many-tables/    classic-tb1's DSDT and 64 header-only SSDTs: one table
#                   more than the check has room for (MAC_FW_MAX_TABLES)
#   many-objects/   a DSDT of 4097 devices (14 bytes each, the last 7 its
#                   _ADR): one named object more than the check has room
#                   for (MAC_FW_MAX_OBJS)

import os
import sys


def pkglen(n):
    """PkgLength for a body of n bytes (the PkgLength's own bytes added)."""
    if n + 1 < 0x40:
        return bytes([n + 1])
    if n + 2 < 0x1000:
        t = n + 2
        return bytes([0x40 | (t & 0xf), t >> 4])
    t = n + 3
    return bytes([0x80 | (t & 0xf), (t >> 4) & 0xff, t >> 12])


def namestring(path):
    root = path.startswith('\\')
    segs = [s.ljust(4, '_').encode() for s in path.lstrip('\\').split('.') if s]
    out = b'\\' if root else b''
    if len(segs) == 2:
        out += b'\x2e'
    elif len(segs) > 2:
        out += bytes([0x2f, len(segs)])
    return out + b''.join(segs)


def scope(path, *body):
    b = namestring(path) + b''.join(body)
    return b'\x10' + pkglen(len(b)) + b


def device(name, *body):
    b = namestring(name) + b''.join(body)
    return b'\x5b\x82' + pkglen(len(b)) + b


def method(name, args, body=b'\xa4\x00'):
    b = namestring(name) + bytes([args]) + body
    return b'\x14' + pkglen(len(b)) + b


def name(n, data):
    return b'\x08' + namestring(n) + data


def byte(v):
    return bytes([0x0a, v])


def eisa(s):
    v = ((ord(s[0]) - 0x40) << 10) | ((ord(s[1]) - 0x40) << 5) | (ord(s[2]) - 0x40)
    return b'\x0c' + bytes([v >> 8, v & 0xff, int(s[3:5], 16), int(s[5:7], 16)])


def string(s):
    return b'\x0d' + s.encode() + b'\x00'


def buffer(data):
    b = byte(len(data)) + data
    return b'\x11' + pkglen(len(b)) + b


def package(*elems):
    b = bytes([len(elems)]) + b''.join(elems)
    return b'\x12' + pkglen(len(b)) + b


def table(sig, aml, oem=b'MCSPRT', length=None):
    n = 36 + len(aml) if length is None else length
    h = sig + n.to_bytes(4, 'little') + b'\x02\x00' + oem.ljust(6)[:6] + \
        b'TESTTBL ' + (1).to_bytes(4, 'little') + b'INTL' + (0x20200925).to_bytes(4, 'little')
    t = bytearray(h + aml)
    t[9] = (-sum(t)) & 0xff
    return bytes(t)


IO_700 = b'\x47\x01\x00\x07\xff\x07\x01\xff'
MEM_T2 = b'\x86\x09\x00\x01' + (0xfe0b0200).to_bytes(4, 'little') + (8).to_bytes(4, 'little')
END = b'\x79\x00'


def gmux(path, cid, res, gpe):
    return scope(path.rsplit('.', 1)[0], device(
        path.rsplit('.', 1)[1],
        name('_HID', eisa('APP000B')), name('_CID', string(cid)),
        name('_STA', byte(0x0b)), name('_CRS', buffer(res + END)),
        name('_PRW', package(byte(gpe), byte(3))), name('GMGP', byte(gpe))))


def nhi_tb1(rp, power='XRPE'):
    return scope(rp, device('UPSB', device('DSB0', device(
        'NHI0', method(power, 1 if power == 'XRPE' else 2), method('XRIL', 0),
        name('XRIN', byte(0x14))))))


def tb3(rp, gpe):
    # RTPC(a) { RTBT = a }: Store (Arg0, \RP.RTBT) names RTBT
    rtpc = b'\x70\x68' + namestring(rp + '.RTBT')
    return scope(rp,
                 name('RTBT', b'\x01'),
                 method('_PS3', 0),
                 scope('\\_GPE', method('_E%02X' % gpe, 0)),
                 device('UPSB', device('DSB0', device(
                     'NHI0', method('TRPE', 2), method('SXFP', 1),
                     method('RTPC', 1, rtpc)))))


def write(d, files):
    os.makedirs(d, exist_ok=True)
    for f, data in files.items():
        with open(os.path.join(d, f), 'wb') as fh:
            fh.write(data)


def main():
    out = sys.argv[1]
    pci = scope('\\_SB', device('PCI0', device('LPCB'), device('RP05'), device('PEG1'),
                                device('PEG2'), device('XHC1')))
    write(os.path.join(out, 'classic-tb1'), {
        'DSDT.aml': table(b'DSDT', pci + gmux('\\_SB.PCI0.LPCB.GMUX', 'gmux', IO_700, 0x16)),
        'SSDT-1.aml': table(b'SSDT', nhi_tb1('\\_SB.PCI0.RP05')),
        'SSDT-2.aml': table(b'SSDT', b''),	# header only, as Apple ships some
    })
    write(os.path.join(out, 't2-tb3'), {
        'DSDT.aml': table(b'DSDT', pci + gmux('\\_SB.PCI0.LPCB.GPUC', 'gpuc', MEM_T2, 0x15)),
        'SSDT-1.aml': table(b'SSDT', tb3('\\_SB.PCI0.PEG1', 0x4b) + tb3('\\_SB.PCI0.PEG2', 0x4c)),
    })
    write(os.path.join(out, 'quirks'), {
        'DSDT.aml': table(b'DSDT', pci + gmux('\\_SB.PCI0.LPCB.GMUX', 'gmux', IO_700, 0x16) +
                          scope('\\_GPE', method('_L06', 0)) +
                          scope('\\_SB.PCI0.XHC1', name('_PRW', package(byte(0x0d), byte(3)))) +
                          scope('\\_SB', device('LID0', name('_PRW', package(byte(0x23), byte(3)))))),
        'SSDT-1.aml': table(b'SSDT', nhi_tb1('\\_SB.PCI0.RP05', 'TRPE')),
    })
    good = table(b'DSDT', pci)
    write(os.path.join(out, 'bad-short'), {'DSDT.aml': good[:20]})
    write(os.path.join(out, 'bad-length'), {'DSDT.aml': table(b'DSDT', pci, length=len(good) + 100)})
    bad = bytearray(good)
    bad[-1] ^= 0x55
    write(os.path.join(out, 'bad-checksum'), {'DSDT.aml': bytes(bad)})
    write(os.path.join(out, 'bad-aml'), {'DSDT.aml': table(b'DSDT', bytes([0xff, 0x5b, 0xee]) * 20)})
    write(os.path.join(out, 'bad-trailing'), {'DSDT.aml': good + b'\x00' * 16})
    write(os.path.join(out, 'bad-signature'), {'DSDT.aml': table(b'FACP', pci)})
    many = {'DSDT.aml': table(b'DSDT', pci + gmux('\\_SB.PCI0.LPCB.GMUX', 'gmux', IO_700, 0x16))}
    for i in range(1, 65):
        many['SSDT-%d.aml' % i] = table(b'SSDT', b'')
    write(os.path.join(out, 'many-tables'), many)
    write(os.path.join(out, 'many-objects'), {
        'DSDT.aml': table(b'DSDT', b''.join(device('D%03X' % (i % 4096), name('_ADR', byte(0)))
                                            for i in range(4097)))})


main()
