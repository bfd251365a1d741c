/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux.asl - the APP000B of a MacBookPro8,1, a gmux that is not there
 *
 * The 13-inch MacBook Pro of 2011 has the HD 3000 only and no gmux, yet its
 * firmware (MBP81.88Z.0047.B27, shared with the MacBookPro8,2/8,3) declares
 * the same Device (GMUX) as the 15-inch model: APP000B with io 0x700-0x7FF
 * and GPE 0x16. Nothing answers at those ports, so a driver must tell this
 * gmux from a real one and refuse it. No dump of this model is at hand:
 * the device is the MacBookPro8,2's, unchanged (same _HID, _CID, _STA,
 * _CRS, _PRW, GMGP, GMSP, GMLV and _L16).
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
 *  - No simulator: the ports read 0xff as on the real machine.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "GmuxMB81", 0x00001000)
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
