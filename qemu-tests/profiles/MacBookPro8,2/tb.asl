/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the Light Ridge Thunderbolt controller of a MacBookPro8,2
 *
 * Mirrors \_SB.PCI0.PEG1.UPSB (DSDT of firmware MBP81.88Z.0047.B27): the
 * upstream bridge UPSB, the downstream bridge DSB0 with the NHI (NHI0) and
 * its Apple methods XRPE (power, 1 argument), XRIP, XRIO, XRIL (plug level)
 * and the Name XRIN (plug GPE), and the hotplug downstream bridges.
 *
 * Simplified for QEMU's q35 (TEST ONLY; profiles/README.md, "Thunderbolt"):
 *  - The Mac's root port is PEG1 (00:01.1); QEMU's is a pcie-root-port at
 *    00:06.0 (profile QEMU_ARGS, id tb0-rp), whose node \_SB.PCI0.S30 QEMU's
 *    DSDT has because that root port sits in the slot. This table refers to
 *    it by External; without the root port it would not load.
 *  - The Mac has DSB1..DSB4 at device 3..6; QEMU's chain has two hotplug
 *    downstream ports, DSB1 and DSB2 at device 1 and 2.
 *  - XRPE drove PEG1's link (LDIS, LTRN, PSTA, speed retraining) and the PCH
 *    GPIO 23 (GP23, the controller's power rail); here it only counts and
 *    flips ZPWR (the stand-in for GP23), after Sleep (ZUPD) on power-on.
 *    The OSDW () (Darwin) guard is left out.
 *  - XRIL returned GP04 (PCH GPIO 4 level, the plug detect line); here it
 *    is derived from ZPWR and ZPLG (profiles/README.md). XRIP/XRIO wrote
 *    GI04/GD04 (GPIO 4 invert and direction bits): Names here.
 *  - XRIN and the NHI's _GPE are 0x14 on the Mac; QEMU raises GPE 0x02 for
 *    real (QMP CPU hot-add or unplug request), so both say 0x02.
 *  - The NHI's _DSM ("power-save") and _EJ0 are left out.
 *  - _PS0/_PS3 on NHI0, DSB1 and DSB2 stand in for the PCI PM capability
 *    that QEMU's ports and the edu stand-in lack (real Macs have none of
 *    these methods): they let the PCI core treat them as D3-capable.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbLrMB82", 0x00001000)
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
                    Name (ZCON, Zero)           // XRPE (1) calls
                    Name (ZCOF, Zero)           // XRPE (0) calls

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

                    Name (GI04, Zero)           // PCH GPIO 4 invert bit
                    Name (GD04, One)            // PCH GPIO 4 direction bit

                    Method (XRPE, 1, Serialized)
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
                                ZPWR = One
                            }
                        }
                        Return (Zero)
                    }

                    Method (XRIP, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            GI04 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            GD04 = Arg0
                        }
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

                    Method (_PS0, 0, Serialized)
                    {
                    }

                    Method (_PS3, 0, Serialized)
                    {
                    }
                }
            }

            Device (DSB1)
            {
                Name (_ADR, 0x00010000)

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }

            Device (DSB2)
            {
                Name (_ADR, 0x00020000)

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }
        }
    }
}
