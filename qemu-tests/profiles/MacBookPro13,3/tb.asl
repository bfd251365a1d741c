/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the first Alpine Ridge (Thunderbolt 3) controller of a
 * MacBookPro13,3
 *
 * The real SSDT "TbtPEG12" of the Mac, \_SB.PCI0.PEG1 and its UPSB, held
 * to the real table: every method that the PCI core or tb_macpm calls
 * (the _PS0/_PS3 of the root port, UPSB, DSB0, DSB2, NHI0 and XHC2, RTPC,
 * TRPE, SXFP, the plug GPE) and everything they call is the real table's
 * Darwin branch, with the same names, the same decisions and the same
 * order of effects:
 *
 *  - the votes RTPC -> RTBT/RUSB; the firmware's own flags GNHI/GXCI (set
 *    by the NHI's and the xHCI's _PS0, cleared only by DSB0's and DSB2's
 *    _PS3 when the vote is already 0) and GPCI (0 in the root port's _PS3,
 *    1 in UPSB's _PS0);
 *  - UGIO, which switches the two rails from those flags (Thunderbolt
 *    pad 0x01070004, USB pad 0x01070007), a Thunderbolt rail only once
 *    CTBT has the chip's CP_ACK_POWERDOWN_OVERRIDE (CTPD), and CTBT only
 *    while the link is out of L23 (PUPS);
 *  - the PEG kind of the root port's PCDA: D3, the link retrained at
 *    2.5 GT/s, the L23 request (PUPD (0)), then BOTH rails driven low
 *    whatever the flags say, 10 ms, GPCI 0 and UGIO, which powers again
 *    the rails that GNHI/GXCI or the votes still want (with today's
 *    tb_macpm order of old, both: a 10 ms glitch, not a power-down);
 *    PCEU (D0 only), and UPSB's PCED (GPCI 1, UGIO, the link back out of
 *    L23 (PUPD (1)) after a PCDA, or the link bounce after any other
 *    _PS3 (IIP3));
 *  - the plug GPE as the real table writes it: Scope (\_GPE) { Method
 *    (_L55) } directly in the root port's scope, level-triggered, whose
 *    Darwin branch flips the RX inversion of the plug pad 0x01070015 and
 *    then calls UPSB.AMPE, Notify (NHI0, 0), Bus Check, as Titan Ridge's
 *    do (the table's AML has the call; the decompiled SSDT-6.dsl of the
 *    dump lost it in an ElseIf).
 * The real machine has a second, identical controller under PEG2 (_L56,
 * pads 0x01070005/0x01070008/0x01070016); one is emulated.
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the pads are ../tables/gpio.asl's model of the real DSDT's pad
 *    methods, on the real pad numbers;
 *  - the PCI config fields the AML writes and polls (PSTA, LDIS, TSPD,
 *    LRTN, PLEQ, the root port's L23 bits Q0L2/Q0L0 at ECAM 0x248) are
 *    Names here, never QEMU's registers: the link trains (and enters L23)
 *    at once, so the waits for it end at once (the real ones give up after
 *    1 s each); the fixed Sleep()s stay;
 *  - the vendor IDs the AML polls (AVND) read all-ones while the rail of
 *    that function is off, or the link above it disabled or in L23, a
 *    chip's ID otherwise;
 *  - the chip's CIO mailbox (UPSB's CIOR/CIOW under CRMW) answers at once
 *    while a rail is on (the real one through UPSB config 0x530-0x53C);
 *  - QEMU's root port is a pcie-root-port at 00:06.0 whose node
 *    \_SB.PCI0.S30 QEMU's DSDT has, in PEG1's place (00:01.1 on the Mac;
 *    00:01.0 is the harness's virtio-serial slot); the Mac's DSB1 and
 *    DSB4 are hotplug ports with a cascade of bridges below, QEMU's chain
 *    has DSB1 (an empty native pciehp slot) and DSB2 with qemu-xhci
 *    (1b36:000d) for XHC2;
 *  - the plug GPE is _L02, not the Mac's _L55: q35's GPE block ends at
 *    0x3f, and 0x02 is the one QEMU raises on demand (a CPU hot-add or
 *    unplug request by QMP);
 *  - \OSDW is gmux.asl's, which asks _OSI ("Darwin") (the Mac's DSDT:
 *    OSYS == 0x2710, which its PINI stores when _OSI ("Darwin") answers
 *    true).
 *
 * TEST ONLY state (prefix Z): NHI0.ZPWR and XHC2.ZPWR read the rails;
 * ZCON/ZCOF count the Thunderbolt rail's power-ups and cuts; ZUPD adds ms
 * to every power-up (UGIO); ZFLT faults (1: the rails never go off, 2:
 * UPSB's _PS0 powers nothing, 3: RTPC fails); ZSTK keeps _L02 from
 * flipping the pad; ZSTB makes NHI0.RTPC write nothing (MacPro7,1's
 * stub); ZGPE counts _L02; ZTRP counts TRPE. Every method the PCI core,
 * ACPICA or tb_macpm calls records itself in the firmware-call trace
 * (\ZTRC, ../tables/trace.asl), which the host replays on the Mac's own
 * tables.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbArMB13", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)
    External (\_SB.GGDV, MethodObj)
    External (\_SB.GGOV, MethodObj)
    External (\_SB.GGII, MethodObj)
    External (\_SB.SGDI, MethodObj)
    External (\_SB.SGDO, MethodObj)
    External (\_SB.SGII, MethodObj)
    External (\_SB.SGOV, MethodObj)
    External (\_SB.ZPCF, MethodObj)
    External (\_SB.ZPCN, MethodObj)
    External (\_SB.ZPST, MethodObj)
    External (\_SB.ZPTO, MethodObj)
    External (\OSDW, MethodObj)

    Scope (\_SB.PCI0.S30)
    {
        Scope (\_GPE)
        {
            /* the plug pad's GPE (real: _L55): flip its RX inversion, then AMPE */
            Method (_L02, 0, NotSerialized)
            {
                \ZTRC ("\\_GPE._L02")
                \_SB.PCI0.S30.ZGPE++
                If (OSDW ())
                {
                    If ((\_SB.PCI0.S30.ZSTK != Zero)) {}
                    ElseIf ((\_SB.GGII (0x01070015) == One))
                    {
                        \_SB.SGII (0x01070015, Zero)
                    }
                    Else
                    {
                        \_SB.SGII (0x01070015, One)
                    }

                    \_SB.PCI0.S30.UPSB.AMPE ()
                }
            }
        }

        Name (ZGPE, Zero)               // TEST ONLY: _L02 runs
        Name (ZSTK, Zero)               // TEST ONLY fault: 1 = _L02 flips nothing
        Name (ZSTB, Zero)               // TEST ONLY fault: 1 = NHI0.RTPC writes nothing

        /* TEST ONLY: the plug pad's RX inversion */
        Method (ZRXI, 0, NotSerialized)
        {
            Return (\_SB.GGII (0x01070015))
        }

        /* the root port's config fields the AML touches (TEST ONLY Names) */
        Name (PSTA, Zero)
        Name (LDIS, Zero)
        Name (TSPD, Zero)
        Name (LRTN, Zero)
        Name (PLEQ, Zero)

        /* the L23 request and exit (ECAM 0x248 of PEG1: Q0L2, Q0L0) */
        Name (Q0L2, Zero)
        Name (Q0L0, Zero)
        Name (PUPS, One)
        Method (PUPD, 2, Serialized)
        {
            If ((Arg0 == Zero))
            {
                If ((PUPS != Zero))
                {
                    Q0L2 = One
                    /* the real AML waits up to 1 s for the bit to clear: at once */
                    Q0L2 = Zero
                    PUPS = Zero
                }
            }
            ElseIf ((PUPS == Zero))
            {
                Q0L0 = One
                /* ... and here up to 100 ms: at once */
                Q0L0 = Zero
                PUPS = One
            }
        }

        Name (IIP3, Zero)
        Name (PRSR, Zero)
        Name (PCIA, One)
        Method (PCEU, 0, Serialized)
        {
            PRSR = Zero
            If ((PSTA != Zero))
            {
                PRSR = One
                PSTA = Zero
            }
        }

        Method (PCDA, 0, Serialized)
        {
            If ((POFF () != Zero))
            {
                PCIA = Zero
                PSTA = 0x03
                TSPD = One
                \_SB.PCI0.S30.UPSB.TSPD = One
                LRTN = One
                /* the real AML waits up to 1 s for the retrain and the ID: at once */
                PUPD (Zero, 0x02)
                \_SB.SGOV (0x01070004, Zero)
                \_SB.SGDO (0x01070004)
                \_SB.SGOV (0x01070007, Zero)
                \_SB.SGDO (0x01070007)
                Sleep (0x0A)
                GPCI = Zero
                UGIO ()
            }

            IIP3 = One
        }

        Method (POFF, 0, Serialized)
        {
            Return ((!RTBT && !RUSB))
        }

        Name (GPCI, One)
        Name (GNHI, One)
        Name (GXCI, One)
        Name (RTBT, One)
        Name (RUSB, One)
        Name (CTPD, Zero)
        Method (CTBT, 0, Serialized)
        {
            If ((PUPS != Zero))
            {
                If (((\_SB.GGDV (0x01070004) == One) && (\_SB.PCI0.S30.UPSB.AVND () != 0xFFFFFFFF)))
                {
                    Local2 = \_SB.PCI0.S30.UPSB.CRMW (0x3C, Zero, 0x02, 0x04000000, 0x04000000)
                    If ((Local2 == Zero))
                    {
                        CTPD = One
                    }
                }
            }
        }

        Method (UGIO, 0, Serialized)
        {
            Local0 = (GNHI || RTBT)
            Local1 = (GXCI || RUSB)
            If ((GPCI != Zero))
            {
                If (((Local0 == Zero) && (Local1 == Zero)))
                {
                    Local0 = One
                    Local1 = One
                }
            }

            Local2 = Zero
            If ((Local0 != Zero))
            {
                If ((\_SB.GGDV (0x01070004) == Zero))
                {
                    \_SB.SGDI (0x01070004)
                    Local2 = One
                    CTPD = Zero
                }
            }

            If ((Local1 != Zero))
            {
                If ((\_SB.GGDV (0x01070007) == Zero))
                {
                    \_SB.SGDI (0x01070007)
                    Local2 = One
                }
            }

            If ((Local2 != Zero))
            {
                Sleep (0x01F4)
                /* TEST ONLY: slow firmware */
                Sleep (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZUPD)
            }

            Local3 = Zero
            If ((Local0 == Zero))
            {
                If ((\_SB.GGDV (0x01070004) == One))
                {
                    CTBT ()
                    If ((CTPD != Zero))
                    {
                        \_SB.SGOV (0x01070004, Zero)
                        \_SB.SGDO (0x01070004)
                        Local3 = One
                    }
                }
            }

            If ((Local1 == Zero))
            {
                If ((\_SB.GGDV (0x01070007) == One))
                {
                    \_SB.SGOV (0x01070007, Zero)
                    \_SB.SGDO (0x01070007)
                    Local3 = One
                }
            }

            If ((Local3 != Zero))
            {
                Sleep (0x64)
            }

            Return (Local2)
        }

        Method (_PS0, 0, Serialized)
        {
            \ZTRC ("\\_SB.PCI0.S30._PS0")
            If (OSDW ())
            {
                PCEU ()
            }
        }

        Method (_PS3, 0, Serialized)
        {
            \ZTRC ("\\_SB.PCI0.S30._PS3")
            If (OSDW ())
            {
                If ((POFF () != Zero))
                {
                    CTBT ()
                }

                PCDA ()
            }
        }

        Method (TGPE, 0, Serialized)
        {
            Notify (\_SB.PCI0.S30, 0x02)
        }

        Device (UPSB)
        {
            Name (_ADR, Zero)

            /* its config fields the AML touches (TEST ONLY Names) */
            Name (TSPD, Zero)

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If ((((\_SB.PCI0.S30.LDIS == One) || (\_SB.PCI0.S30.PUPS == Zero)) ||
                    ((\_SB.GGDV (0x01070004) == Zero) && (\_SB.GGDV (0x01070007) == Zero))))
                {
                    Return (0xFFFFFFFF)
                }

                Return (0x15788086)
            }

            Method (PCED, 0, Serialized)
            {
                /* TEST ONLY fault: the power-up does not happen */
                If ((\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZFLT == 0x02))
                {
                    Return (Zero)
                }

                \_SB.PCI0.S30.GPCI = One
                If ((\_SB.PCI0.S30.UGIO () != Zero))
                {
                    \_SB.PCI0.S30.PRSR = One
                }

                Local0 = Zero
                If ((\_SB.PCI0.S30.PUPS != Zero))
                {
                    If ((\_SB.PCI0.S30.IIP3 != Zero))
                    {
                        \_SB.PCI0.S30.PRSR = One
                        Local0 = One
                        \_SB.PCI0.S30.LDIS = One
                    }
                }

                If ((\_SB.PCI0.S30.PRSR != Zero))
                {
                    Sleep (0x1E)
                    If (((\_SB.PCI0.S30.PUPS == Zero) || (Local0 != Zero)))
                    {
                        \_SB.PCI0.S30.TSPD = One
                        If ((\_SB.PCI0.S30.PUPS == Zero))
                        {
                            \_SB.PCI0.S30.PUPD (One, 0x02)
                        }
                        ElseIf ((Local0 != Zero))
                        {
                            \_SB.PCI0.S30.LDIS = Zero
                        }

                        /* the real AML waits for the link (LTSM), then 120 ms, then the ID */
                        Sleep (0x78)
                        \_SB.PCI0.S30.TSPD = 0x03
                        \_SB.PCI0.S30.PLEQ = One
                        \_SB.PCI0.S30.LRTN = One
                    }

                    /* ... and for the retrain, then 250 ms */
                    Sleep (0xFA)
                }

                \_SB.PCI0.S30.PRSR = Zero
                /* the ID read at once; the speed already 8 GT/s */
                \_SB.PCI0.S30.PCIA = One
                \_SB.PCI0.S30.IIP3 = Zero
                Return (Zero)
            }

            Method (AMPE, 0, Serialized)
            {
                Notify (\_SB.PCI0.S30.UPSB.DSB0.NHI0, Zero)
            }

            /* the chip's CIO mailbox, read-modify-write, through CIOR/CIOW on the Mac */
            Method (CRMW, 5, Serialized)
            {
                Local1 = One
                If ((\_SB.PCI0.S30.PUPS != Zero))
                {
                    If ((((\_SB.GGDV (0x01070004) == One) || (\_SB.GGDV (0x01070007) == One)) &&
                        (AVND () != 0xFFFFFFFF)))
                    {
                        /* TEST ONLY: the chip answers at once, the bits read back as written */
                        Local1 = Zero
                    }
                }

                Return (Local1)
            }

            Method (_PS0, 0, Serialized)
            {
                \ZTRC ("\\_SB.PCI0.S30.UPSB._PS0")
                If (OSDW ())
                {
                    PCED ()
                    CRMW (0x013E, Zero, 0x02, 0x0200, 0x0200)
                    CRMW (0x023E, Zero, 0x02, 0x0200, 0x0200)
                }
            }

            /* the Darwin branch does nothing (the rest starts the ICM) */
            Method (_PS3, 0, Serialized)
            {
                \ZTRC ("\\_SB.PCI0.S30.UPSB._PS3")
            }

            Device (DSB0)
            {
                Name (_ADR, Zero)
                Name (PSTA, Zero)
                Name (LDIS, Zero)
                Name (IIP3, Zero)
                Name (PRSR, Zero)
                Name (PCIA, One)
                Method (PCEU, 0, Serialized)
                {
                    PRSR = Zero
                    If ((PSTA != Zero))
                    {
                        PRSR = One
                        PSTA = Zero
                    }

                    If ((LDIS == One))
                    {
                        PRSR = One
                        LDIS = Zero
                    }
                }

                Method (PCDA, 0, Serialized)
                {
                    If ((POFF () != Zero))
                    {
                        PCIA = Zero
                        PSTA = 0x03
                        LDIS = One
                        /* the link drops at once */
                        \_SB.PCI0.S30.GNHI = Zero
                        \_SB.PCI0.S30.UGIO ()
                    }

                    IIP3 = One
                }

                Method (POFF, 0, Serialized)
                {
                    Return (!\_SB.PCI0.S30.RTBT)
                }

                Method (_PS0, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB0._PS0")
                    If (OSDW ())
                    {
                        PCEU ()
                    }
                }

                Method (_PS3, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB0._PS3")
                    If (OSDW ())
                    {
                        PCDA ()
                    }
                }

                Device (NHI0)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPLG, Zero)           // 1 = something plugged (not read on Thunderbolt 3)
                    Name (ZUPD, Zero)           // ms added to every power-up (UGIO)
                    Name (ZFLT, Zero)           // fault: 1 stuck on, 2 UPSB's _PS0 powers nothing, 3 RTPC fails
                    Name (ZTRP, Zero)           // TRPE calls (tb_macpm makes none here)

                    /* TEST ONLY: the Thunderbolt rail, 1 = on (what the stand-in NHI checks) */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\_SB.GGDV (0x01070004))
                    }

                    /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                    Method (ZPOT, 0, NotSerialized)
                    {
                        Return (\_SB.ZPTO (0x01070004))
                    }

                    /* TEST ONLY: the Thunderbolt rail's power-ups and cuts */
                    Method (ZCON, 0, NotSerialized)
                    {
                        Return (\_SB.ZPCN (0x01070004))
                    }

                    Method (ZCOF, 0, NotSerialized)
                    {
                        Return (\_SB.ZPCF (0x01070004))
                    }

                    /*
                     * TEST ONLY setter: Arg0 = 0 the rails (1 on, 0 off), 1 ZPLG, 2 ZUPD,
                     * 3 ZFLT, 6 ZSTK, 7 ZSTB; Arg1 = the value. Returns the new value, or
                     * Ones for an unknown index. Recorded in the trace.
                     */
                    Method (ZSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR ",
                                    ToDecimalString (Arg1)))
                                If (Arg1)
                                {
                                    \_SB.SGDI (0x01070004)
                                    \_SB.SGDI (0x01070007)
                                }
                                Else
                                {
                                    \_SB.SGOV (0x01070004, Zero)
                                    \_SB.SGDO (0x01070004)
                                    \_SB.SGOV (0x01070007, Zero)
                                    \_SB.SGDO (0x01070007)
                                }
                            }
                            Case (One)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPLG ",
                                    ToDecimalString (Arg1)))
                                ZPLG = Arg1
                            }
                            Case (0x02)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZUPD ",
                                    ToDecimalString (Arg1)))
                                ZUPD = Arg1
                            }
                            Case (0x03)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZFLT ",
                                    ToDecimalString (Arg1)))
                                ZFLT = Arg1
                                \_SB.ZPST (0x01070004, (Arg1 == One))
                                \_SB.ZPST (0x01070007, (Arg1 == One))
                            }
                            Case (0x06)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.ZSTK ",
                                    ToDecimalString (Arg1)))
                                \_SB.PCI0.S30.ZSTK = Arg1
                            }
                            Case (0x07)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.ZSTB ",
                                    ToDecimalString (Arg1)))
                                \_SB.PCI0.S30.ZSTB = Arg1
                            }
                            Default
                            {
                                Return (Ones)
                            }
                        }

                        Return (Arg1)
                    }

                    /* TEST ONLY: the vendor ID, all-ones while its rail is off or DSB0's link down */
                    Method (AVND, 0, NotSerialized)
                    {
                        If (((\_SB.PCI0.S30.UPSB.DSB0.LDIS == One) ||
                            (\_SB.GGDV (0x01070004) == Zero)))
                        {
                            Return (0xFFFFFFFF)
                        }

                        Return (0x15D28086)
                    }

                    Method (PCED, 0, Serialized)
                    {
                        \_SB.PCI0.S30.GNHI = One
                        If ((\_SB.PCI0.S30.UGIO () != Zero))
                        {
                            \_SB.PCI0.S30.UPSB.DSB0.PRSR = One
                        }

                        If ((\_SB.PCI0.S30.UPSB.DSB0.PRSR != Zero))
                        {
                            /* the real AML waits for DSB0's link, then 150 ms */
                            Sleep (0x96)
                        }

                        \_SB.PCI0.S30.UPSB.DSB0.PRSR = Zero
                        /* ... and for the NHI's ID */
                        If ((AVND () != 0xFFFFFFFF))
                        {
                            \_SB.PCI0.S30.UPSB.DSB0.PCIA = One
                        }

                        \_SB.PCI0.S30.UPSB.DSB0.IIP3 = Zero
                    }

                    /* Arg0 <= 1: the Thunderbolt vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.RTPC ",
                            ToDecimalString (Arg0)))
                        If ((ZFLT == 0x03))
                        {
                            /* TEST ONLY fault: the method fails */
                            Local0 = Zero
                            Local0 = (One / Local0)
                        }

                        If (OSDW ())
                        {
                            If (((Arg0 <= One) && (\_SB.PCI0.S30.ZSTB == Zero)))
                            {
                                \_SB.PCI0.S30.RTBT = Arg0
                            }
                        }

                        Return (Zero)
                    }

                    Method (_PS0, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0._PS0")
                        If (OSDW ())
                        {
                            PCED ()
                            \_SB.PCI0.S30.CTBT ()
                        }
                    }

                    Method (_PS3, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0._PS3")
                    }

                    /* TRPE(Arg0, settle ms): the Thunderbolt rail alone, the root port's D3 and L23 */
                    Method (TRPE, 2, Serialized)
                    {
                        \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.TRPE ",
                            ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
                        ZTRP++
                        If (OSDW ())
                        {
                            If ((Arg0 <= One))
                            {
                                If ((Arg0 == Zero))
                                {
                                    \_SB.PCI0.S30.PUPD (Zero, 0x02)
                                    \_SB.PCI0.S30.PSTA = 0x03
                                    \_SB.SGOV (0x01070004, Zero)
                                    \_SB.SGDO (0x01070004)
                                }
                                ElseIf (((\_SB.GGOV (0x01070004) == Zero) &&
                                    (\_SB.GGDV (0x01070004) == Zero)))
                                {
                                    \_SB.PCI0.S30.PSTA = Zero
                                    \_SB.SGDI (0x01070004)
                                    Sleep (0x1E)
                                    \_SB.PCI0.S30.PUPD (One, 0x02)
                                    /* the link trains at once; the settle delay stays */
                                    Sleep (Arg1)
                                    /* the upstream port's ID at the first try: no retry */
                                }
                            }
                        }

                        Return (Zero)
                    }

                    /* Arg0 == 0: both rails off, the USB one first (not under OSDW) */
                    Method (SXFP, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.SXFP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 == Zero))
                        {
                            If ((\_SB.GGDV (0x01070007) == One))
                            {
                                \_SB.SGOV (0x01070007, Zero)
                                \_SB.SGDO (0x01070007)
                                Sleep (0x64)
                            }

                            \_SB.SGOV (0x01070004, Zero)
                            \_SB.SGDO (0x01070004)
                        }
                    }

                    /* a flag only on this Mac (no reset pad; nothing calls it) */
                    Name (XRTE, Zero)
                    Method (XRST, 1, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            XRTE = Zero
                        }
                        ElseIf ((Arg0 == One))
                        {
                            XRTE = One
                        }
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
                Name (PSTA, Zero)
                Name (LDIS, Zero)
                Name (IIP3, Zero)
                Name (PRSR, Zero)
                Name (PCIA, One)
                Method (PCEU, 0, Serialized)
                {
                    PRSR = Zero
                    If ((PSTA != Zero))
                    {
                        PRSR = One
                        PSTA = Zero
                    }

                    If ((LDIS == One))
                    {
                        PRSR = One
                        LDIS = Zero
                    }
                }

                Method (PCDA, 0, Serialized)
                {
                    If ((POFF () != Zero))
                    {
                        PCIA = Zero
                        PSTA = 0x03
                        LDIS = One
                        /* the link drops at once */
                        \_SB.PCI0.S30.GXCI = Zero
                        \_SB.PCI0.S30.UGIO ()
                    }

                    IIP3 = One
                }

                Method (POFF, 0, Serialized)
                {
                    Return (!\_SB.PCI0.S30.RUSB)
                }

                Method (_PS0, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB2._PS0")
                    If (OSDW ())
                    {
                        PCEU ()
                    }
                }

                Method (_PS3, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB2._PS3")
                    If (OSDW ())
                    {
                        PCDA ()
                    }
                }

                /* the controller's USB 3.1 xHCI (15d4 on the Mac, _PRW 0x6D; QEMU's qemu-xhci) */
                Device (XHC2)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY: the USB rail, 1 = on */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\_SB.GGDV (0x01070007))
                    }

                    /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                    Method (ZPOT, 0, NotSerialized)
                    {
                        Return (\_SB.ZPTO (0x01070007))
                    }

                    /* TEST ONLY: the vendor ID, all-ones while its rail is off or DSB2's link down */
                    Method (AVND, 0, NotSerialized)
                    {
                        If (((\_SB.PCI0.S30.UPSB.DSB2.LDIS == One) ||
                            (\_SB.GGDV (0x01070007) == Zero)))
                        {
                            Return (0xFFFFFFFF)
                        }

                        Return (0x15D48086)
                    }

                    Method (PCED, 0, Serialized)
                    {
                        \_SB.PCI0.S30.GXCI = One
                        If ((\_SB.PCI0.S30.UGIO () != Zero))
                        {
                            \_SB.PCI0.S30.UPSB.DSB2.PRSR = One
                        }

                        If ((\_SB.PCI0.S30.UPSB.DSB2.PRSR != Zero))
                        {
                            /* the real AML waits for DSB2's link, then 150 ms */
                            Sleep (0x96)
                        }

                        \_SB.PCI0.S30.UPSB.DSB2.PRSR = Zero
                        If ((AVND () != 0xFFFFFFFF))
                        {
                            \_SB.PCI0.S30.UPSB.DSB2.PCIA = One
                        }

                        \_SB.PCI0.S30.UPSB.DSB2.IIP3 = Zero
                    }

                    Method (_PS0, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB2.XHC2._PS0")
                        If (OSDW ())
                        {
                            PCED ()
                        }
                    }

                    Method (_PS3, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB2.XHC2._PS3")
                    }

                    /* Arg0 <= 1: the USB vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB2.XHC2.RTPC ",
                            ToDecimalString (Arg0)))
                        If ((\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZFLT == 0x03))
                        {
                            /* TEST ONLY fault: the method fails */
                            Local0 = Zero
                            Local0 = (One / Local0)
                        }

                        If (OSDW ())
                        {
                            If ((Arg0 <= One))
                            {
                                \_SB.PCI0.S30.RUSB = Arg0
                            }
                        }

                        Return (Zero)
                    }
                }
            }
        }
    }
}
