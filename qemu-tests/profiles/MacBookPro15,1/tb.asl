/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the two Titan Ridge (Thunderbolt 3) controllers of a
 * MacBookPro15,1
 *
 * Mirrors \_SB.PCI0.PEG1 and \_SB.PCI0.PEG2 with their UPSBs (SSDT
 * "TbtPEG12" of the real machine): per controller the upstream bridge
 * UPSB, DSB0 with the NHI (NHI0) and its Apple methods TRPE (power, 2
 * arguments) and RTPC (the Thunderbolt vote), and the hotplug downstream
 * bridges; in the root port's scope the votes RTBT and RUSB, its _PS0 and
 * _PS3 (which cuts the power once both votes are 0), and the plug GPE as
 * the real table writes it: Scope (\_GPE) { Method (_E4B) } in PEG1's
 * scope and _E4C in PEG2's, edge-triggered, whose Darwin branch calls
 * UPSB.AMPE: Notify (NHI0, 0). As on the real Mac there is no XRIL and no
 * XRIN. tb_macpm reports the mechanism and the plug GPE it finds and keeps
 * both controllers powered (Thunderbolt 3 power-down is not implemented
 * yet).
 *
 * Simplified for QEMU's q35 (TEST ONLY, see the MacBookPro13,3 profile's
 * tb.asl and qemu-tests/profiles/README.md):
 *  - The Mac's root ports are PEG1 and PEG2 (00:01.1, 00:01.2); QEMU's are
 *    pcie-root-ports at 00:06.0 and 00:07.0 (profile QEMU_ARGS), whose
 *    nodes \_SB.PCI0.S30 and S38 QEMU's DSDT has.
 *  - The Mac has DSB1, DSB2 (with the xHCI, XHC2), DSB4; QEMU's chain has
 *    an empty hotplug downstream port DSB1 at device 1 and DSB2 at device 2
 *    with QEMU's qemu-xhci (1b36:000d) for XHC2, whose RTPC is the USB
 *    vote; it has no driver in the tests (QEMU's xHCI has no PM
 *    capability, so xhci-pci would never let it runtime-suspend).
 *  - TRPE, RTPC, the root port's _PS3 and UPSB's _PS0 set and count TEST
 *    ONLY state instead of the GPIOs, the CIO mailbox and the link: _PS3
 *    sets ZPWR to 0 when both votes are 0, UPSB's _PS0 sets it to 1 after
 *    ZUPD ms (counted in ZCON) when it was 0; the root port's _PS0 does
 *    what the Mac's does for power: nothing. DSB0, DSB2, NHI0 and XHC2 have no
 *    _PS0/_PS3 here. The OSDW () (Darwin) guards are left out. q35's GPE
 *    block ends at 0x3f, so 0x4b and 0x4c never fire: a test runs the
 *    firmware's _E4B/_E4C itself, which notifies the NHI as on the Mac.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbtPEG12", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)
    External (\_SB.PCI0.S38, DeviceObj)

    /* PEG1: the first controller */
    Scope (\_SB.PCI0.S30)
    {
        Name (RTBT, One)                // Thunderbolt vote: 1 = forced on (NHI0.RTPC)
        Name (RUSB, One)                // USB vote (XHC2.RTPC)
        Name (ZGPE, Zero)               // TEST ONLY: _E4B runs

        /* the Mac's PCEU: PMCSR D0 and the link; power comes back in UPSB._PS0 */
        Method (_PS0, 0, Serialized)
        {
        }

        Method (_PS3, 0, Serialized)
        {
            If (((RTBT == Zero) && (RUSB == Zero)))
            {
                /* TEST ONLY: CTBT and PCDA's power GPIOs low */
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZCOF++
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR = Zero
            }
        }

        Scope (\_GPE)
        {
            /* the plug pad's GPE, edge; Darwin: AMPE, Notify (NHI0, Bus Check) */
            Method (_E4B, 0, NotSerialized)
            {
                \_SB.PCI0.S30.ZGPE++
                \_SB.PCI0.S30.UPSB.AMPE ()
            }
        }

        Device (UPSB)
        {
            Name (_ADR, Zero)

            Method (AMPE, 0, Serialized)
            {
                Notify (\_SB.PCI0.S30.UPSB.DSB0.NHI0, Zero)
            }

            /* the Mac's PCED: GPCI = 1, UGIO powers the controller, waits for the link */
            Method (_PS0, 0, Serialized)
            {
                If ((\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR == Zero))
                {
                    /* TEST ONLY */
                    \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZCON++
                    Sleep (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZUPD)
                    \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR = One
                }
            }

            Method (_PS3, 0, Serialized)
            {
            }

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI0)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPWR, One)            // 1 = powered
                    Name (ZPLG, Zero)           // 1 = something plugged
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // power-ups: UPSB._PS0 (or TRPE (1))
                    Name (ZCOF, Zero)           // cuts: the root port's _PS3 (or TRPE (0))
                    Name (ZTRP, Zero)           // TRPE calls (tb_macpm makes none here)

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

                    /* Arg0 <= 1: the Thunderbolt vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            \_SB.PCI0.S30.RTBT = Arg0
                        }
                        Return (Zero)
                    }

                    /* Arg1: settle delay after the link is up (tb_macpm passes 0) */
                    Method (TRPE, 2, Serialized)
                    {
                        ZTRP++
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
                                Sleep (ZUPD)
                                Sleep (Arg1)
                                ZPWR = One
                            }
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

                /* the controller's USB 3.1 xHCI (15ec on the Mac; QEMU's qemu-xhci) */
                Device (XHC2)
                {
                    Name (_ADR, Zero)

                    /* Arg0 <= 1: the USB vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            \_SB.PCI0.S30.RUSB = Arg0
                        }
                        Return (Zero)
                    }
                }
            }
        }
    }

    /* PEG2: the second controller */
    Scope (\_SB.PCI0.S38)
    {
        Name (RTBT, One)                // Thunderbolt vote: 1 = forced on (NHI0.RTPC)
        Name (RUSB, One)                // USB vote (XHC2.RTPC)
        Name (ZGPE, Zero)               // TEST ONLY: _E4C runs

        /* the Mac's PCEU: PMCSR D0 and the link; power comes back in UPSB._PS0 */
        Method (_PS0, 0, Serialized)
        {
        }

        Method (_PS3, 0, Serialized)
        {
            If (((RTBT == Zero) && (RUSB == Zero)))
            {
                /* TEST ONLY: CTBT and PCDA's power GPIOs low */
                \_SB.PCI0.S38.UPSB.DSB0.NHI0.ZCOF++
                \_SB.PCI0.S38.UPSB.DSB0.NHI0.ZPWR = Zero
            }
        }

        Scope (\_GPE)
        {
            /* the plug pad's GPE, edge; Darwin: AMPE, Notify (NHI0, Bus Check) */
            Method (_E4C, 0, NotSerialized)
            {
                \_SB.PCI0.S38.ZGPE++
                \_SB.PCI0.S38.UPSB.AMPE ()
            }
        }

        Device (UPSB)
        {
            Name (_ADR, Zero)

            Method (AMPE, 0, Serialized)
            {
                Notify (\_SB.PCI0.S38.UPSB.DSB0.NHI0, Zero)
            }

            /* the Mac's PCED: GPCI = 1, UGIO powers the controller, waits for the link */
            Method (_PS0, 0, Serialized)
            {
                If ((\_SB.PCI0.S38.UPSB.DSB0.NHI0.ZPWR == Zero))
                {
                    /* TEST ONLY */
                    \_SB.PCI0.S38.UPSB.DSB0.NHI0.ZCON++
                    Sleep (\_SB.PCI0.S38.UPSB.DSB0.NHI0.ZUPD)
                    \_SB.PCI0.S38.UPSB.DSB0.NHI0.ZPWR = One
                }
            }

            Method (_PS3, 0, Serialized)
            {
            }

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI0)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPWR, One)            // 1 = powered
                    Name (ZPLG, Zero)           // 1 = something plugged
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // power-ups: UPSB._PS0 (or TRPE (1))
                    Name (ZCOF, Zero)           // cuts: the root port's _PS3 (or TRPE (0))
                    Name (ZTRP, Zero)           // TRPE calls (tb_macpm makes none here)

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

                    /* Arg0 <= 1: the Thunderbolt vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            \_SB.PCI0.S38.RTBT = Arg0
                        }
                        Return (Zero)
                    }

                    /* Arg1: settle delay after the link is up (tb_macpm passes 0) */
                    Method (TRPE, 2, Serialized)
                    {
                        ZTRP++
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
                                Sleep (ZUPD)
                                Sleep (Arg1)
                                ZPWR = One
                            }
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

                /* the controller's USB 3.1 xHCI (15ec on the Mac; QEMU's qemu-xhci) */
                Device (XHC2)
                {
                    Name (_ADR, Zero)

                    /* Arg0 <= 1: the USB vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            \_SB.PCI0.S38.RUSB = Arg0
                        }
                        Return (Zero)
                    }
                }
            }
        }
    }
}
