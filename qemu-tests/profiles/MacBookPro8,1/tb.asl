/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - TEST ONLY fault: a Light Ridge Thunderbolt controller whose
 * firmware lacks Apple's methods
 *
 * No dump of this model's tables is at hand. The chain has the shape of
 * the MacBookPro8,2's (profiles/MacBookPro8,2/tb.asl: root port 00:06.0,
 * QEMU's \_SB.PCI0.S30 -> UPSB -> DSB0 -> NHI0, DSB1/DSB2 hotplug ports),
 * but the NHI's scope has XRPE only: no XRIL (plug level) and no XRIN
 * (plug GPE). Without them the controller can be switched off but never
 * woken on plug, so tb_macpm must leave it alone and say why, once
 * (the "methods missing" fault).
 *
 * XRPE only counts its calls (ZCON, ZCOF): the tests check that tb_macpm
 * never called it.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbLrBad", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)

    Scope (\_SB.PCI0.S30)
    {
        Device (UPSB)
        {
            Name (_ADR, Zero)

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI0)
                {
                    Name (_ADR, Zero)
                    Name (ZCON, Zero)           // XRPE (1) calls
                    Name (ZCOF, Zero)           // XRPE (0) calls

                    Method (XRPE, 1, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            ZCOF++
                        }
                        Else
                        {
                            ZCON++
                        }
                        Return (Zero)
                    }
                }
            }

            Device (DSB1)
            {
                Name (_ADR, 0x00010000)
            }

            Device (DSB2)
            {
                Name (_ADR, 0x00020000)
            }
        }
    }
}
