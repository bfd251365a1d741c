/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gcon.asl - the APP000B of a MacPro6,1 (Late 2013), Device (GCON)
 *
 * The Mac Pro has two FirePro GPUs and no integrated GPU, hence no display
 * mux, yet its firmware (MP61.88Z.0116.B16) declares under LPCB a
 * Device (GCON) with _HID APP000B, _CID "gcon", _STA 0x0B, io 0x700-0x7FF
 * (length 0xFF), _PRW {0x16, 4} (wake from S4, where the gmux laptops say
 * 3), GMGP 0x16, _L16 -> Notify (GCON, 0x80), GMSP/GMLV on the PCH GPIO 6
 * level bit GP06, and a _DSM answering Apple's property UUID with
 * "interface_capability" = 1. What, if anything, answers at the ports on a
 * real Mac Pro is undocumented (no driver or public report says what this
 * device is for); under QEMU nothing does (they read 0xff).
 *
 * Simplified for QEMU's q35:
 *  - QEMU's DSDT has no LPCB; \_SB.PCI0.LPCB is a plain container without
 *    _ADR or _HID (see README.md), so it does not clash with QEMU's node
 *    for 00:1f.0.
 *  - GP06 is bit 6 of GP_LVL (GPIOBASE + 0x0c) of the PCH GPIO block on the
 *    Mac; QEMU has none, so it is a Name inside GCON. GMSP keeps the real
 *    logic (it ORs its argument in).
 *  - _DSM: the real one calls the firmware's DTGP helper; here the same
 *    answers are written inline (function 0: buffer {0x03}; otherwise the
 *    package), with the same UUID.
 *  - Nothing raises GPE 0x16 in QEMU; _L16 exists so the GPE has a handler.
 *  - No simulator.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "GconMP61", 0x00001000)
{
    External (\_SB.PCI0, DeviceObj)

    Device (\_SB.PCI0.LPCB)
    {
        Device (GCON)
        {
            Name (_HID, EisaId ("APP000B"))
            Name (_CID, "gcon")
            Name (_STA, 0x0B)
            Name (_CRS, ResourceTemplate ()
            {
                IO (Decode16,
                    0x0700,             // Range Minimum
                    0x07FF,             // Range Maximum
                    0x01,               // Alignment
                    0xFF,               // Length (8 bits: Linux shows io 0x700-0x7fe)
                    )
            })
            Name (_PRW, Package (0x02)
            {
                0x16,                   // GPE: PCH GPIO 6
                0x04                    // deepest wake state S4, as the real table
            })

            Scope (\_GPE)
            {
                Method (_L16, 0, NotSerialized)
                {
                    Notify (\_SB.PCI0.LPCB.GCON, 0x80)
                }
            }

            /* Stands in for the PCH GPIO level bit GP06 (see header). */
            Name (GP06, Zero)

            Name (GMGP, 0x16)
            Method (GMSP, 1, NotSerialized)
            {
                If (LLessEqual (Arg0, One))
                {
                    Or (GP06, Arg0, GP06)
                }
            }

            Method (GMLV, 0, NotSerialized)
            {
                Return (GP06)
            }

            Method (_DSM, 4, NotSerialized)
            {
                If (LEqual (Arg0, ToUUID ("a0b5b7c6-1318-441c-b0c9-fe695eaf949b")))
                {
                    If (LEqual (Arg2, Zero))
                    {
                        Return (Buffer (One) { 0x03 })
                    }
                    Return (Package (0x02)
                    {
                        "interface_capability",
                        One
                    })
                }
                Return (0x80000002)
            }
        }
    }
}
