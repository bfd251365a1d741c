/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux.asl - the T2 (MMIO) gmux of a MacBookPro15,1, ACPI object GPUC
 *
 * Mirrors Device (GPUC) in \_SB.PCI0.LPCB of the MacBookPro15,1 DSDT
 * (firmware 1037.80.53.0.0): same _HID, _CID, _STA, _CRS, the _PRW method,
 * GMGP, GMSP, GMLV and the _L15 GPE method with its Darwin/non-Darwin paths.
 *
 * Simplified for QEMU's q35:
 *  - QEMU's DSDT has no LPCB; \_SB.PCI0.LPCB is declared here as a plain
 *    container without _ADR or _HID, so it does not clash with QEMU's own
 *    node for 00:1f.0. Other SSDTs of this profile that need LPCB must use
 *    External (\_SB.PCI0.LPCB, DeviceObj) and be listed after this file.
 *  - The Mac's \OSDW returns 1 when OSYS is 0x2710, which its PINI sets
 *    when _OSI ("Darwin") answers true. Here \OSDW asks _OSI ("Darwin")
 *    directly (Linux answers true when DMI says "Apple Inc."). Other SSDTs
 *    of this profile must use External (\OSDW, MethodObj), not redefine it.
 *  - On the Mac, GMSP, GMLV and the non-Darwin _L15 path use the PCH GPIO
 *    pad 0x03000015 through \_SB.SGII/GGII (pad RX-invert bit, DW0 bit 23)
 *    and \_SB.GGIV (pad RX state, DW0 bit 1). QEMU has no such pad, so the
 *    two bits are the Name variables GPII and GPIV inside GPUC.
 *  - Nothing decodes 0xFE0B0200 in QEMU (the T2 gmux registers are absent)
 *    and nothing raises GPE 0x15; _L15 exists so the GPE has a handler.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "GpucMB15", 0x00001000)
{
    External (\_SB.PCI0, DeviceObj)

    Method (\OSDW, 0, NotSerialized)
    {
        If (_OSI ("Darwin"))
        {
            Return (One)
        }

        Return (Zero)
    }

    Device (\_SB.PCI0.LPCB)
    {
        Device (GPUC)
        {
            Name (_HID, EisaId ("APP000B"))
            Name (_CID, "gpuc")
            Name (_STA, 0x0B)
            Name (_CRS, ResourceTemplate ()
            {
                Memory32Fixed (ReadWrite,
                    0xFE0B0200,         // Address Base
                    0x00000008,         // Address Length
                    )
            })
            Method (_PRW, 0, NotSerialized)
            {
                /* Both paths return the same package on the Mac too. */
                If (OSDW ())
                {
                    Return (Package (0x02)
                    {
                        0x15,
                        0x03
                    })
                }

                Return (Package (0x02)
                {
                    0x15,
                    0x03
                })
            }

            Scope (\_GPE)
            {
                Method (_L15, 0, NotSerialized)
                {
                    If (OSDW ())
                    {
                        Notify (\_SB.PCI0.LPCB.GPUC, 0x80)
                    }
                    ElseIf (LEqual (\_SB.PCI0.LPCB.GPUC.GPII, One))
                    {
                        Store (Zero, \_SB.PCI0.LPCB.GPUC.GPII)
                    }
                    Else
                    {
                        Store (One, \_SB.PCI0.LPCB.GPUC.GPII)
                    }
                }
            }

            /* Stand in for pad 0x03000015's RX-invert and RX-state bits. */
            Name (GPII, Zero)
            Name (GPIV, Zero)

            Name (GMGP, 0x15)
            Method (GMSP, 1, NotSerialized)
            {
                If (LLessEqual (Arg0, One))
                {
                    Store (Arg0, GPII)
                }
            }

            Method (GMLV, 0, NotSerialized)
            {
                Return (GPIV)
            }
        }
    }
}
