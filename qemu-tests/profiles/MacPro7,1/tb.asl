/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - two Titan Ridge (Thunderbolt 3) controllers of a MacPro7,1
 *
 * Mirrors the real SSDT "TBTPEX": the Mac Pro's controllers hang below
 * a PCIe switch, \_SB.PC04.MCP0.US00, on its downstream ports DS18, DS19
 * (the I/O card's two here; DS09/DS0A and DS1A/DS1B are the MPX
 * modules', left out). Each downstream port plays the root port's part of
 * the other Thunderbolt 3 Macs: in its scope the votes RTBT and RUSB, its
 * _PS0/_PS3 (PCEU/PCDA: _PS3 would cut only with both votes 0), and the
 * plug GPE as the real table writes it, Scope (\_GPE) { Method (_E2A) }
 * in DS18's scope and _E2B in DS19's, edge-triggered, each returning at
 * once if the DSDT's NHI1/NHI2 is 0, whose Darwin branch calls UPSB.AMPE:
 * Notify (NHI0, 0). DS18's UPSB has a second Scope (\_GPE) of its own, the
 * DisplayPort GPE _L26 (DPNT: Notify (NHI0, 1)); tb_macpm must take the
 * GPE of the port's scope only (depth 1), not this one.
 *
 * What makes this Mac different: NHI0.RTPC is a stub. It returns 0 and
 * writes no vote, so RTBT stays 1, the port's _PS3 never cuts and only
 * TRPE (2 arguments) switches the power: TRPE (0) puts the port in D3 and
 * drives the Thunderbolt power GPIO low, TRPE (1) releases it, retrains
 * the link and waits for the upstream port. The xHCI (XHC2 in DSB2) has
 * no RTPC at all. The upstream port's _PS0 (PCED) powers the controller
 * through UGIO whenever its Thunderbolt side is wanted (GNHI or RTBT,
 * always here): after a TRPE (0) that the module did not undo first with
 * TRPE (1), it would power it up behind the module's back.
 *
 * Simplified for QEMU's q35 (TEST ONLY, see qemu-tests/profiles/README.md):
 *  - The switch's upstream port hangs below QEMU's pcie-root-port at
 *    00:06.0 (node \_SB.PCI0.S30 of QEMU's DSDT) instead of PC04.MCP0;
 *    US00, DS18 (device 0x18) and DS19 (0x19) are QEMU's x3130-upstream
 *    and xio3130-downstream, with the real names and addresses.
 *  - Each controller's chain: UPSB -> DSB0 -> NHI stand-in (edu), DSB1 an
 *    empty native pciehp slot, DSB2 -> QEMU's qemu-xhci for XHC2.
 *  - TRPE, the ports' _PS0/_PS3 and UPSB's _PS0 set and count TEST ONLY
 *    state instead of the GPIOs, the CIO mailbox and the link: TRPE (0)
 *    sets ZPWR to 0 (ZCOF), TRPE (1) sets it to 1 after ZUPD ms (ZCON);
 *    UPSB's _PS0 does the same as TRPE (1) when ZPWR is 0 and counts it
 *    in ZPS0 as well (tb_macpm must never let that happen). The OSDW ()
 *    guards are left out, as is the DSB0/DSB2 _PS0/_PS3 bookkeeping,
 *    which does nothing with RTBT and RUSB at 1.
 *  - GPEs 0x2a and 0x2b exist in q35's block but nothing raises them: a
 *    test runs the firmware's _E2A itself, whose Notify is real ACPICA.
 *    The DP pad's RX inversion is TEST ONLY state (ZDPI), runs in ZDPG.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TBTPEX", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)

    /* the DSDT's NVS fields (the NHIs' MMIO bases on the Mac): nonzero, present */
    Name (NHI1, 0xC0000000)
    Name (NHI2, 0xC0100000)

    /* the DSDT's part: the switch and its two downstream ports */
    Scope (\_SB.PCI0.S30)
    {
        Device (US00)
        {
            Name (_ADR, Zero)

            Device (DS18)
            {
                Name (_ADR, 0x00180000)
            }

            Device (DS19)
            {
                Name (_ADR, 0x00190000)
            }
        }
    }

    Scope (\_SB.PCI0.S30.US00)
    {
        Scope (\_SB.PCI0.S30.US00.DS18)
        {
            Scope (\_GPE)
            {
                /* the plug pad's GPE, edge; Darwin: AMPE, Notify (NHI0, Bus Check) */
                Method (_E2A, 0, NotSerialized)
                {
                    If ((NHI1 == Zero))
                    {
                        Return (Zero)
                    }

                    \_SB.PCI0.S30.US00.DS18.ZGPE++
                    \_SB.PCI0.S30.US00.DS18.UPSB.AMPE ()
                }
            }

            Name (RTBT, One)            // Thunderbolt vote: never written (NHI0.RTPC is a stub)
            Name (RUSB, One)            // USB vote: never written (XHC2 has no RTPC)
            Name (ZGPE, Zero)           // TEST ONLY: _E2A runs

            /* PCEU: PMCSR D0, the link enabled; no power-on */
            Method (_PS0, 0, Serialized)
            {
            }

            /* CTBT and PCDA when both votes are 0: never here */
            Method (_PS3, 0, Serialized)
            {
                If (((RTBT == Zero) && (RUSB == Zero)))
                {
                    /* TEST ONLY: the power GPIOs low */
                    \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZCOF++
                    \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPWR = Zero
                }
            }

            Device (UPSB)
            {
                Name (_ADR, Zero)

                Method (AMPE, 0, Serialized)
                {
                    Notify (\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0, Zero)
                }

            /* TEST ONLY: the DP pad's RX inversion (real pad 0x01030006), _L26 runs */
            Name (ZDPI, Zero)
            Name (ZDPG, Zero)

            /* the DisplayPort GPE of this upstream port's own \_GPE scope */
            Scope (\_GPE)
            {
                Method (_L26, 0, NotSerialized)
                {
                    \_SB.PCI0.S30.US00.DS18.UPSB.ZDPG++
                    \_SB.PCI0.S30.US00.DS18.UPSB.ZDPI ^= One
                    \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.DPNT ()
                }
            }

                /* PCED: GPCI = 1, UGIO powers the Thunderbolt side (RTBT is 1) */
                Method (_PS0, 0, Serialized)
                {
                    If ((\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPWR == Zero))
                    {
                        /* TEST ONLY */
                        \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPS0++
                        \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZCON++
                        Sleep (\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZUPD)
                        \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPWR = One
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
                        Name (ZPWR, One)        // 1 = powered
                        Name (ZPLG, Zero)       // 1 = something plugged (no XRIL reads it here)
                        Name (ZUPD, 100)        // power-up delay, ms
                        Name (ZFLT, Zero)       // fault: 0 none, 1 stuck on
                        Name (ZCON, Zero)       // power-ups: TRPE (1), or UPSB._PS0
                        Name (ZCOF, Zero)       // cuts: TRPE (0)
                        Name (ZTRP, Zero)       // TRPE calls
                        Name (ZPS0, Zero)       // power-ups by UPSB._PS0 (tb_macpm: none)

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
                        Notify (\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0, One)
                    }

                        /* the real table's: a stub that writes no vote */
                        Method (RTPC, 1, Serialized)
                        {
                            Return (Zero)
                        }

                        /* Arg1: a delay after the link is up (tb_macpm passes 0) */
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
                                ElseIf ((ZPWR == Zero))
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

                    /* the controller's xHCI (QEMU's qemu-xhci); no RTPC on this Mac */
                    Device (XHC2)
                    {
                        Name (_ADR, Zero)
                    }
                }
            }
        }

        Scope (\_SB.PCI0.S30.US00.DS19)
        {
            Scope (\_GPE)
            {
                /* the plug pad's GPE, edge; Darwin: AMPE, Notify (NHI0, Bus Check) */
                Method (_E2B, 0, NotSerialized)
                {
                    If ((NHI2 == Zero))
                    {
                        Return (Zero)
                    }

                    \_SB.PCI0.S30.US00.DS19.ZGPE++
                    \_SB.PCI0.S30.US00.DS19.UPSB.AMPE ()
                }
            }

            Name (RTBT, One)            // Thunderbolt vote: never written (NHI0.RTPC is a stub)
            Name (RUSB, One)            // USB vote: never written (XHC2 has no RTPC)
            Name (ZGPE, Zero)           // TEST ONLY: _E2B runs

            /* PCEU: PMCSR D0, the link enabled; no power-on */
            Method (_PS0, 0, Serialized)
            {
            }

            /* CTBT and PCDA when both votes are 0: never here */
            Method (_PS3, 0, Serialized)
            {
                If (((RTBT == Zero) && (RUSB == Zero)))
                {
                    /* TEST ONLY: the power GPIOs low */
                    \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZCOF++
                    \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPWR = Zero
                }
            }

            Device (UPSB)
            {
                Name (_ADR, Zero)

                Method (AMPE, 0, Serialized)
                {
                    Notify (\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0, Zero)
                }

                /* PCED: GPCI = 1, UGIO powers the Thunderbolt side (RTBT is 1) */
                Method (_PS0, 0, Serialized)
                {
                    If ((\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPWR == Zero))
                    {
                        /* TEST ONLY */
                        \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPS0++
                        \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZCON++
                        Sleep (\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZUPD)
                        \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPWR = One
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
                        Name (ZPWR, One)        // 1 = powered
                        Name (ZPLG, Zero)       // 1 = something plugged (no XRIL reads it here)
                        Name (ZUPD, 100)        // power-up delay, ms
                        Name (ZFLT, Zero)       // fault: 0 none, 1 stuck on
                        Name (ZCON, Zero)       // power-ups: TRPE (1), or UPSB._PS0
                        Name (ZCOF, Zero)       // cuts: TRPE (0)
                        Name (ZTRP, Zero)       // TRPE calls
                        Name (ZPS0, Zero)       // power-ups by UPSB._PS0 (tb_macpm: none)

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

                        /* the real table's: a stub that writes no vote */
                        Method (RTPC, 1, Serialized)
                        {
                            Return (Zero)
                        }

                        /* Arg1: a delay after the link is up (tb_macpm passes 0) */
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
                                ElseIf ((ZPWR == Zero))
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

                    /* the controller's xHCI (QEMU's qemu-xhci); no RTPC on this Mac */
                    Device (XHC2)
                    {
                        Name (_ADR, Zero)
                    }
                }
            }
        }
    }
}
