/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux.asl - the classic (port I/O, Lattice XP2) gmux of a MacBookPro8,2
 *
 * Mirrors Device (GMUX) in \_SB.PCI0.LPCB of the MacBookPro8,2 DSDT
 * (firmware MBP81.88Z.0047.B27): same _HID, _CID, _STA, _CRS, _PRW, GMGP,
 * GMSP, GMLV and the _L16 GPE method.
 *
 * Simplified for QEMU's q35:
 *  - QEMU's DSDT has no LPCB; \_SB.PCI0.LPCB is declared here as a plain
 *    container without _ADR or _HID, so it does not clash with QEMU's own
 *    node for 00:1f.0. Other SSDTs of this profile that need LPCB must use
 *    External (\_SB.PCI0.LPCB, DeviceObj) and be listed after this file.
 *  - On the Mac, GMSP and GMLV use GP06, bit 6 of GP_LVL (GPIOBASE + 0x0c)
 *    of the PCH GPIO block. QEMU has no such GPIO, so GP06 is a Name
 *    variable inside GMUX. GMSP keeps the real logic (it ORs its argument
 *    in, so GMSP (0) never clears the bit, exactly as on the Mac).
 *  - Nothing raises GPE 0x16 in QEMU; _L16 exists so the GPE has a handler.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "GmuxMB82", 0x00001000)
{
    External (\_SB.PCI0, DeviceObj)

    Device (\_SB.PCI0.LPCB)
    {
        Device (GMUX)
        {
            Name (_HID, EisaId ("APP000B"))
            Name (_CID, "gmux")
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
                0x16,                   // GPE: PCH GPIO 6 (GPI routed to GPE 0x16)
                0x03
            })

            Scope (\_GPE)
            {
                Method (_L16, 0, NotSerialized)
                {
                    Notify (\_SB.PCI0.LPCB.GMUX, 0x80)
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
        }
    }
}
