/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the three Falcon Ridge Thunderbolt controllers of a MacPro6,1
 *
 * Mirrors SSDT "TbtPEG10" of firmware MP61.88Z.0116.B16 (OEM "Apple"): one
 * Scope per controller, \_SB.PCI0.PEG0.BR00.BR10, BR11 and BR12 (the
 * ports of a PCIe switch behind PEG0), each with the upstream bridge UFS0,
 * UFS1 or UFS2, the downstream bridge DSB0 with the NHI (NHI0, NHI1, NHI2)
 * and its Apple methods TRPE (power, 2 arguments), XRIP, XRIO, XRIL (plug
 * level), SXFP and the Name XRIN (plug GPE), and the hotplug downstream
 * bridges.
 *
 *   controller  real port  upstream  NHI   power rail  plug line  XRIN/_GPE
 *   1           BR10       UFS0      NHI0  GP45        GP04       0x14
 *   2           BR11       UFS1      NHI1  GP46        GP05       0x15
 *   3           BR12       UFS2      NHI2  GP47        GP03       0x13
 *
 * TRPE (Arg0, Arg1): Arg0 = 0 powers the controller off (root port link
 * disable, wait up to 1 s for the link to go down, GP4x = 0), 1 powers it
 * on if it is off (GP4x = 1, link enable, wait up to 1 s for training).
 * Arg1 is a settle time in ms: after the link has trained, the real body
 * does Sleep (Arg1) before it polls the upstream bridge's vendor ID
 * (UFSx.AVND != 0xFFFFFFFF) for the rest of that second; it tries five
 * times, 1 s apart with the rail off, then retrains the link to 5 GT/s
 * where both ends can. Arg1 is unused on power-off. tb_macpm passes 0.
 *
 * Simplified for QEMU's q35 (TEST ONLY; profiles/README.md, "Thunderbolt"):
 *  - The Mac's root ports are BR10/BR11/BR12 below PEG0's switch; QEMU's
 *    are pcie-root-ports at 00:06.0, 00:07.0 and 00:08.0 (profile
 *    QEMU_ARGS, ids tb0-rp, tb1-rp, tb2-rp), whose nodes \_SB.PCI0.S30,
 *    S38 and S40 QEMU's DSDT has because those root ports sit in the
 *    slots. This table refers to them by External; without the root ports
 *    it would not load. The real methods in the root ports' scopes (TGPE,
 *    DTBP, RMCR, RMCW, DTLK, ...) and the real bridges' config space
 *    fields, _BBN, _STA and _RMV are left out.
 *  - The Mac has DSB1..DSB4 at device 3..6; QEMU's chains have two hotplug
 *    downstream ports, DSB1 and DSB2 at device 1 and 2.
 *  - TRPE drove the root port's link (PSTA, LDIS, LTRN, speed retraining)
 *    and the PCH GPIO (GP45/GP46/GP47, the controller's power rail); here
 *    it only counts and flips ZPWR (the stand-in for the GPIO), after
 *    Sleep (ZUPD) and Sleep (Arg1) on power-on. The OSDW () (Darwin) guard
 *    is left out (the real TRPE does nothing unless the OS is Darwin).
 *  - XRIL returned GP04/GP05/GP03 (the plug detect line); here it is
 *    derived from ZPWR and ZPLG (profiles/README.md). XRIP/XRIO wrote the
 *    GPIO's invert and direction bits (GI0x/GD0x): Names here. SXFP (0)
 *    cut the power rail; here it clears ZPWR (tb_macpm never calls it).
 *  - XRIN and the NHI's _GPE: QEMU raises GPE 0x02 for real (QMP CPU
 *    hot-add or unplug request), so controller 1 says 0x02 (real 0x14).
 *    Controllers 2 and 3 keep their real numbers 0x15 and 0x13, which
 *    nothing raises in QEMU: they come on only through their NHI.
 *  - The NHI's _STR, _DSM ("power-save"), EJS4 and config space fields are
 *    left out.
 *  - _PS0/_PS3 on each NHI, DSB1 and DSB2 stand in for the PCI PM
 *    capability that QEMU's ports and the edu stand-in lack (real Macs
 *    have none of these methods): they let the PCI core treat them as
 *    D3-capable.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbFrMP61", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)
    External (\_SB.PCI0.S38, DeviceObj)
    External (\_SB.PCI0.S40, DeviceObj)

    /* the Mac's \_SB.PCI0.PEG0.BR00.BR10 */
    Scope (\_SB.PCI0.S30)
    {
        Device (UFS0)
        {
            Name (_ADR, Zero)

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI0)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPWR, One)            // 1 = powered (the Mac's GP45)
                    Name (ZPLG, Zero)           // 1 = something plugged (GP04)
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // TRPE (1, x) calls
                    Name (ZCOF, Zero)           // TRPE (0, x) calls

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

                    /* Arg0: 0 off, 1 on; Arg1: settle time (ms) after link training */
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

                    Method (SXFP, 1, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            ZPWR = Zero
                        }
                    }

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
                Name (_ADR, 0x00010000)         // real: 0x00030000

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }

            Device (DSB2)
            {
                Name (_ADR, 0x00020000)         // real: 0x00040000

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }
        }
    }

    /* the Mac's \_SB.PCI0.PEG0.BR00.BR11 */
    Scope (\_SB.PCI0.S38)
    {
        Device (UFS1)
        {
            Name (_ADR, Zero)

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI1)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPWR, One)            // 1 = powered (the Mac's GP46)
                    Name (ZPLG, Zero)           // 1 = something plugged (GP05)
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // TRPE (1, x) calls
                    Name (ZCOF, Zero)           // TRPE (0, x) calls

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

                    Name (GI05, Zero)           // PCH GPIO 5 invert bit
                    Name (GD05, One)            // PCH GPIO 5 direction bit

                    /* Arg0: 0 off, 1 on; Arg1: settle time (ms) after link training */
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

                    Method (XRIP, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            GI05 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            GD05 = Arg0
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

                    Name (XRIN, 0x15)           // real, never raised in QEMU
                    Name (_GPE, 0x15)           // real, never raised in QEMU

                    Method (SXFP, 1, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            ZPWR = Zero
                        }
                    }

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
                Name (_ADR, 0x00010000)         // real: 0x00030000

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }

            Device (DSB2)
            {
                Name (_ADR, 0x00020000)         // real: 0x00040000

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }
        }
    }

    /* the Mac's \_SB.PCI0.PEG0.BR00.BR12 */
    Scope (\_SB.PCI0.S40)
    {
        Device (UFS2)
        {
            Name (_ADR, Zero)

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI2)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPWR, One)            // 1 = powered (the Mac's GP47)
                    Name (ZPLG, Zero)           // 1 = something plugged (GP03)
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // TRPE (1, x) calls
                    Name (ZCOF, Zero)           // TRPE (0, x) calls

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

                    Name (GI03, Zero)           // PCH GPIO 3 invert bit
                    Name (GD03, One)            // PCH GPIO 3 direction bit

                    /* Arg0: 0 off, 1 on; Arg1: settle time (ms) after link training */
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

                    Method (XRIP, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            GI03 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            GD03 = Arg0
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

                    Name (XRIN, 0x13)           // real, never raised in QEMU
                    Name (_GPE, 0x13)           // real, never raised in QEMU

                    Method (SXFP, 1, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            ZPWR = Zero
                        }
                    }

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
                Name (_ADR, 0x00010000)         // real: 0x00030000

                Method (_PS0, 0, Serialized)
                {
                }

                Method (_PS3, 0, Serialized)
                {
                }
            }

            Device (DSB2)
            {
                Name (_ADR, 0x00020000)         // real: 0x00040000

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
