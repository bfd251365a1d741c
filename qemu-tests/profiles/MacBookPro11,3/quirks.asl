/* SPDX-License-Identifier: GPL-2.0 */
/*
 * quirks.asl - the IGPU's GPE and the wake devices of a MacBookPro11,3,
 * for mac_quirks
 *
 * Mirrors, from the real machine's tables (firmware MBP112.88Z.0138.B14):
 *  - \_GPE._L06 (DSDT): the handler of GPE 0x06, the integrated GPU's SCI
 *    (IGPU GSSE/GSCI/GEFC/SCIE, \SCIS). GPE 0x06 is the one MacBookPro11,x
 *    owners mask against an interrupt storm (acpi_mask_gpe=0x06).
 *  - \_SB.PCI0.XHC1 (SSDT "SDUsbLpt"): the xHCI controller, _ADR 0x00140000,
 *    wake GPE 0x0D (_PRW {0x0D, 3}).
 *  - \_SB.LID0 (DSDT): the lid, PNP0C0D, wake GPE 0x23; _PRW says
 *    {0x23, 4} when OSDW () and {0x23, 3} otherwise. Linux gets the
 *    Darwin path on a Mac (_OSI ("Darwin") is true), so /proc/acpi/wakeup
 *    shows LID0 with S4.
 * GPEs 0x06, 0x0D and 0x23 are all within q35's GPE0 block (0x00-0x3f).
 *
 * Simplified for QEMU's q35:
 *  - _L06 read and wrote the IGPU's OpRegion (GSSE, GSCI (), GEFC, SCIE)
 *    and the NVS field SCIS; QEMU's VGA has none of these, so _L06 only
 *    counts its calls in ZS06 (TEST ONLY, a Name). Nothing raises GPE
 *    0x06 in QEMU.
 *  - XHC1: the real _PRW is a method whose Darwin and non-Darwin paths
 *    return the same {0x0D, 3}: a Name here. Its config-space fields
 *    (XH1C/XH2C at 0xD0), _DSM, the root hub and port objects are left
 *    out. No xHCI sits at 00:14.0 (the profile stays lean), so XHC1 has
 *    no PCI companion: it is an ACPI wake device only, as /proc/acpi/wakeup
 *    lists it.
 *  - LID0: _LID returned \LIDS (NVS, filled from the EC's ELSW) and _PSW
 *    set the EC's wake bit EWLO when the EC was ready (ECOK); both are
 *    Names inside LID0 here (LIDS = 1: the lid is open).
 *  - OSDW () is gmux.asl's \OSDW (it asks _OSI ("Darwin") directly), so
 *    this table comes after gmux.asl in ACPI.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "QrksM113", 0x00001000)
{
    External (\_SB.PCI0, DeviceObj)
    External (\OSDW, MethodObj)

    Scope (\_GPE)
    {
        Name (ZS06, Zero)               // TEST ONLY: calls of _L06

        Method (_L06, 0, NotSerialized)
        {
            ZS06++
        }
    }

    Scope (\_SB.PCI0)
    {
        Device (XHC1)
        {
            Name (_ADR, 0x00140000)
            Name (_PRW, Package (0x02)
            {
                0x0D,
                0x03
            })
        }
    }

    Scope (\_SB)
    {
        Device (LID0)
        {
            Name (_HID, EisaId ("PNP0C0D"))
            Name (LIDS, One)            // real: \LIDS (NVS), from the EC's ELSW
            Name (EWLO, Zero)           // real: \_SB.PCI0.LPCB.EC.EWLO

            Method (_PRW, 0, NotSerialized)
            {
                If (OSDW ())
                {
                    Return (Package (0x02)
                    {
                        0x23,
                        0x04
                    })
                }
                Else
                {
                    Return (Package (0x02)
                    {
                        0x23,
                        0x03
                    })
                }
            }

            Method (_LID, 0, NotSerialized)
            {
                Return (LIDS)
            }

            Method (_PSW, 1, NotSerialized)
            {
                If (Arg0)
                {
                    EWLO = One
                }
                Else
                {
                    EWLO = Zero
                }
            }
        }
    }
}
