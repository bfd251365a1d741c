/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the two Titan Ridge (Thunderbolt 3) controllers of a Macmini8,1
 *
 * Mirrors \_SB.PCI0.PEG1 and \_SB.PCI0.PEG2 with their UPSBs (SSDT
 * "TbtPEG12" of the real machine), as on the MacBookPro15,1 (see its
 * tb.asl), with the Mac mini's differences:
 *  - the plug GPEs are swapped: _E4C in PEG1's \_GPE scope, _E4B in
 *    PEG2's (each calls UPSB.AMPE: Notify (NHI0, 0), Bus Check);
 *  - each UPSB has a second Scope (\_GPE) of its own, with the DisplayPort
 *    GPE of that controller (_L28 below PEG1's UPSB, _L27 below PEG2's),
 *    level-triggered and not gated by OSDW (): it flips the RX inversion of
 *    its pad (0x03030008, 0x03030007) and calls DPNT on both NHIs, a
 *    Notify (NHI0, 1), Device Check. tb_macpm must take the GPE of the root
 *    port's scope only (depth 1), not these.
 *
 * Simplified for QEMU's q35 (TEST ONLY): as the MacBookPro15,1's. q35's
 * GPE block ends at 0x3f, so 0x4b and 0x4c never fire: a test runs the
 * firmware's _E4C/_E4B (and _L28) itself, whose Notify is real ACPICA.
 * 0x27 and 0x28 exist in q35's block but nothing raises them. The DP pads'
 * RX inversion is TEST ONLY state (ZDPI), counted runs in ZDPG.
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
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZCOF++
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR = Zero
            }
        }

        Scope (\_GPE)
        {
            /* the plug pad's GPE, edge; Darwin: AMPE, Notify (NHI0, Bus Check) */
            Method (_E4C, 0, NotSerialized)
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

            /* TEST ONLY: the DP pad's RX inversion (real pad 0x03030008), _L28 runs */
            Name (ZDPI, Zero)
            Name (ZDPG, Zero)

            /* the DisplayPort GPE, not gated by OSDW (): flip the pad, DPNT on both NHIs */
            Scope (\_GPE)
            {
                Method (_L28, 0, NotSerialized)
                {
                    \_SB.PCI0.S30.UPSB.ZDPG++
                    \_SB.PCI0.S30.UPSB.ZDPI ^= One
                    \_SB.PCI0.S30.UPSB.DSB0.NHI0.DPNT ()
                    \_SB.PCI0.S38.UPSB.DSB0.NHI0.DPNT ()
                }
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

                    /* the DP GPE's notify: Device Check */
                    Method (DPNT, 0, NotSerialized)
                    {
                        Notify (\_SB.PCI0.S30.UPSB.DSB0.NHI0, One)
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
                \_SB.PCI0.S38.UPSB.DSB0.NHI0.ZCOF++
                \_SB.PCI0.S38.UPSB.DSB0.NHI0.ZPWR = Zero
            }
        }

        Scope (\_GPE)
        {
            /* the plug pad's GPE, edge; Darwin: AMPE, Notify (NHI0, Bus Check) */
            Method (_E4B, 0, NotSerialized)
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

            /* TEST ONLY: the DP pad's RX inversion (real pad 0x03030007), _L27 runs */
            Name (ZDPI, Zero)
            Name (ZDPG, Zero)

            /* the DisplayPort GPE, not gated by OSDW (): flip the pad, DPNT on both NHIs */
            Scope (\_GPE)
            {
                Method (_L27, 0, NotSerialized)
                {
                    \_SB.PCI0.S38.UPSB.ZDPG++
                    \_SB.PCI0.S38.UPSB.ZDPI ^= One
                    \_SB.PCI0.S30.UPSB.DSB0.NHI0.DPNT ()
                    \_SB.PCI0.S38.UPSB.DSB0.NHI0.DPNT ()
                }
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

                    /* the DP GPE's notify: Device Check */
                    Method (DPNT, 0, NotSerialized)
                    {
                        Notify (\_SB.PCI0.S38.UPSB.DSB0.NHI0, One)
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
