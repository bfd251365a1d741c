/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the Falcon Ridge Thunderbolt controller of a MacBookPro11,3
 *
 * Mirrors \_SB.PCI0.PEG1.UPSB (SSDT "TbtPEG11" of the real machine): the
 * upstream bridge UPSB, DSB0 with the NHI (NHI0) and its Apple methods
 * TRPE (power, 2 arguments), XRIL (plug level) and the Name XRIN (plug
 * GPE), and the hotplug downstream bridges.
 *
 * Simplified for QEMU's q35 (TEST ONLY, see the MacBookPro8,2 profile's
 * tb.asl and qemu-tests/profiles/README.md):
 *  - The Mac's root port is PEG1 (00:01.1); QEMU's is a pcie-root-port at 00:06.0
 *    (profile QEMU_ARGS, id tb0-rp), whose node \_SB.PCI0.S30 QEMU's DSDT
 *    has because that root port sits in the slot.
 *  - The Mac has DSB1, DSB2, DSB4 (each with a cascade of bridges below); QEMU's chain has two hotplug downstream ports, DSB1
 *    and DSB2 at device 1 and 2.
 *  - TRPE drove the root port's link and the PCH GPIO of the controller's
 *    power rail; here it only counts and flips ZPWR, after Sleep (ZUPD) on
 *    power-on. The OSDW () (Darwin) guard is left out.
 *  - XRIL returned the plug-detect GPIO's level; here it is derived from
 *    ZPWR and ZPLG (1 = off and nothing plugged).
 *  - XRIN and the NHI's _GPE are 0x14 on the Mac; QEMU raises GPE 0x02 for
 *    real (QMP CPU hot-add or unplug request), so both say 0x02.
 *  - The NHI's _DSM, _PRW and the other methods are left out. No _PS0/_PS3:
 *    the kernel is booted with pcie_port_pm=force and the stand-in NHI
 *    driver allows D3cold on the chain, as a real port's PM capability does.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbFrMB11", 0x00001000)
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

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPWR, One)            // 1 = powered (the Mac's GP23)
                    Name (ZPLG, Zero)           // 1 = something plugged (GP04)
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // TRPE (1) calls
                    Name (ZCOF, Zero)           // TRPE (0) calls

                    /*
                     * TEST ONLY setter: Arg0 = 0 ZPWR, 1 ZPLG, 2 ZUPD,
                     * 3 ZFLT, 4 ZCON, 5 ZCOF; Arg1 = the value. Returns
                     * the new value, or Ones for an unknown index.
                     */
                    Method (ZSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero) { ZPWR = Arg1 }
                            Case (One) { ZPLG = Arg1 }
                            Case (0x02) { ZUPD = Arg1 }
                            Case (0x03) { ZFLT = Arg1 }
                            Case (0x04) { ZCON = Arg1 }
                            Case (0x05) { ZCOF = Arg1 }
                            Default { Return (Ones) }
                        }
                        Return (Arg1)
                    }

                    /*
                     * Arg1: the real body sleeps Arg1 ms after the link
                     * came up, before it polls the upstream port's vendor
                     * ID (a settle delay); tb_macpm passes 0. Emulated the
                     * same way, after the ZUPD delay.
                     */
                    Method (TRPE, 2, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            If ((Arg0 == Zero))
                            {
                                ZCOF++
                                If ((ZFLT != One))
                                {
                                    ZPWR = Zero
                                }
                            }
                            Else
                            {
                                ZCON++
                                If ((ZFLT == 0x02))
                                {
                                    /* TEST ONLY: the method faults before the rail is on */
                                    Local0 = Zero
                                    Local0 = (One / Local0)
                                }
                                Sleep (ZUPD)
                                Sleep (Arg1)
                                ZPWR = One
                            }
                        }
                        Return (Zero)
                    }

                    Method (XRIL, 0, Serialized)
                    {
                        If (((ZPWR == Zero) && (ZPLG == Zero)))
                        {
                            Return (One)
                        }
                        Return (Zero)
                    }

                    Name (XRIN, 0x02)           // real: 0x14
                    Name (_GPE, 0x02)           // real: 0x14
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
