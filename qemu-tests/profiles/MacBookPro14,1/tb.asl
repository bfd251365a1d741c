/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the Alpine Ridge (Thunderbolt 3) controller of a MacBookPro14,1
 *
 * The real SSDT "TbtOnPCH" of the Mac, \_SB.PCI0.RP05 and its UPSB, held
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
 *    pad 0x02060000, USB pad 0x02060001), a Thunderbolt rail only once
 *    CTBT has the chip's CP_ACK_POWERDOWN_OVERRIDE (CTPD);
 *  - the PCH kind of the root port's PCDA (D3, link disable, GPCI 0,
 *    UGIO), PCEU (D0, link enable, XRST(0)), and UPSB's PCED (GPCI 1,
 *    UGIO, the link bounce after any _PS3 (IIP3));
 *  - the plug GPE as the real table writes it: Scope (\_GPE) { Method
 *    (_L32) } directly in the root port's scope, level-triggered, whose
 *    Darwin branch flips the RX inversion of the plug pad 0x02020012 and
 *    then calls UPSB.AMPE, Notify (NHI0, 0), Bus Check ("CIO Plug Event -
 *    Call AMPE": the table's AML has the call; the decompiled SSDT-4.dsl
 *    of the dump lost it in an ElseIf).
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the pads are ../tables/gpio.asl's model of the real DSDT's pad
 *    methods, on the real pad numbers;
 *  - the PCI config fields the AML writes and polls (PSTA, LDIS, LACR,
 *    LACT, LTRN, the speeds) are Names here, never QEMU's registers: the
 *    link trains at once, so the waits for it end at once (the real ones
 *    give up after 1 s each); the fixed Sleep()s stay;
 *  - the vendor IDs the AML polls (AVND) read all-ones while the rail of
 *    that function is off or the link above it disabled, a chip's ID
 *    otherwise;
 *  - the chip's CIO mailbox (UPSB's CIOR/CIOW under CRMW) answers at once
 *    while a rail is on (the real one through UPSB config 0x530-0x53C);
 *  - QEMU's root port is a pcie-root-port at 00:06.0 whose node
 *    \_SB.PCI0.S30 QEMU's DSDT has, in RP05's place; the Mac's DSB1 and
 *    DSB4 are hotplug ports with a cascade of bridges below, QEMU's chain
 *    has DSB1 (an empty native pciehp slot) and DSB2 with qemu-xhci
 *    (1b36:000d) for XHC2;
 *  - the plug GPE is _L02, not the Mac's _L32: q35's GPE block raises
 *    0x02 on demand (a CPU hot-add or unplug request by QMP);
 *  - \OSDW is ../tables/osdw.asl's, which asks _OSI ("Darwin") (the Mac's
 *    DSDT: OSYS == 0x2710, which its PINI stores when _OSI ("Darwin")
 *    answers true).
 *
 * TEST ONLY state (prefix Z): NHI0.ZPWR and XHC2.ZPWR read the rails;
 * NHI0's ZCON/ZCOF count the Thunderbolt rail's power-ups and cuts, XHC2's
 * the USB rail's; ZUPD adds ms
 * to every power-up (UGIO); ZFLT faults (1: the rails never go off, 2:
 * UPSB's _PS0 powers nothing, 3: RTPC fails); ZSTK keeps _L02 from
 * flipping the pad; ZSTB makes NHI0.RTPC write nothing (MacPro7,1's
 * stub); ZGPE counts _L02; ZTRP counts TRPE; ZRPD names the rails' pads,
 * by which the stand-in NHI's chip reads all-ones while unpowered
 * (macsupport_test_nhi, lc_sleep). Every
 * method the PCI core, ACPICA or tb_macpm calls records itself in the
 * firmware-call trace (\ZTRC, ../tables/trace.asl), which the host
 * replays on the Mac's own tables (replay.map).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbtOnPCH", 0x00001000)
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
            /* the plug pad's GPE (real: _L32): flip its RX inversion, then AMPE */
            Method (_L02, 0, NotSerialized)
            {
                \ZTRC ("\\_GPE._L02")
                \_SB.PCI0.S30.ZGPE++
                If (OSDW ())
                {
                    If ((\_SB.PCI0.S30.ZSTK != Zero)) {}
                    ElseIf ((\_SB.GGII (0x02020012) == One))
                    {
                        \_SB.SGII (0x02020012, Zero)
                    }
                    Else
                    {
                        \_SB.SGII (0x02020012, One)
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
            Return (\_SB.GGII (0x02020012))
        }

        /* the root port's config fields the AML touches (TEST ONLY Names) */
        Name (PSTA, Zero)
        Name (LDIS, Zero)
        Name (TSPD, Zero)
        Name (LRTN, Zero)

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

            If ((\_SB.PCI0.S30.UPSB.DSB0.NHI0.XRTE != Zero))
            {
                PRSR = One
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.XRST (Zero)
            }
        }

        Method (PCDA, 0, Serialized)
        {
            If ((POFF () != Zero))
            {
                PCIA = Zero
                PSTA = 0x03
                LDIS = One
                /* the real AML waits up to 1 s for the link to drop: it is down at once */
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
            If (((\_SB.GGDV (0x02060000) == One) && (\_SB.PCI0.S30.UPSB.AVND () != 0xFFFFFFFF)))
            {
                Local2 = \_SB.PCI0.S30.UPSB.CRMW (0x3C, Zero, 0x02, 0x04000000, 0x04000000)
                If ((Local2 == Zero))
                {
                    CTPD = One
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
                If ((\_SB.GGDV (0x02060000) == Zero))
                {
                    \_SB.SGDI (0x02060000)
                    Local2 = One
                    CTPD = Zero
                }
            }

            If ((Local1 != Zero))
            {
                If ((\_SB.GGDV (0x02060001) == Zero))
                {
                    \_SB.SGDI (0x02060001)
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
                If ((\_SB.GGDV (0x02060000) == One))
                {
                    CTBT ()
                    If ((CTPD != Zero))
                    {
                        \_SB.SGOV (0x02060000, Zero)
                        \_SB.SGDO (0x02060000)
                        Local3 = One
                    }
                }
            }

            If ((Local1 == Zero))
            {
                If ((\_SB.GGDV (0x02060001) == One))
                {
                    \_SB.SGOV (0x02060001, Zero)
                    \_SB.SGDO (0x02060001)
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

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If (((\_SB.PCI0.S30.LDIS == One) || ((\_SB.GGDV (0x02060000) == Zero) &&
                    (\_SB.GGDV (0x02060001) == Zero))))
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
                If ((\_SB.PCI0.S30.IIP3 != Zero))
                {
                    \_SB.PCI0.S30.PRSR = One
                    Local0 = One
                    \_SB.PCI0.S30.LDIS = One
                }

                If ((\_SB.PCI0.S30.PRSR != Zero))
                {
                    Sleep (0x1E)
                    If ((Local0 != Zero))
                    {
                        \_SB.PCI0.S30.TSPD = One
                        \_SB.PCI0.S30.LDIS = Zero
                        /* the real AML waits for training, then 120 ms, then the ID */
                        Sleep (0x78)
                        \_SB.PCI0.S30.TSPD = 0x03
                        \_SB.PCI0.S30.LRTN = One
                    }

                    /* ... and for the downstream bridge, then 250 ms */
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
                If ((((\_SB.GGDV (0x02060000) == One) || (\_SB.GGDV (0x02060001) == One)) &&
                    (AVND () != 0xFFFFFFFF)))
                {
                    /* TEST ONLY: the chip answers at once, the bits read back as written */
                    Local1 = Zero
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
                    /* the Thunderbolt and the USB rail's pads: the stand-in chip answers by them */
                    Name (ZRPD, Package (0x02) { 0x02060000, 0x02060001 })

                    /* TEST ONLY: the Thunderbolt rail, 1 = on (what the stand-in NHI checks) */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\_SB.GGDV (0x02060000))
                    }

                    /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                    Method (ZPOT, 0, NotSerialized)
                    {
                        Return (\_SB.ZPTO (0x02060000))
                    }

                    /* TEST ONLY: the Thunderbolt rail's power-ups and cuts */
                    Method (ZCON, 0, NotSerialized)
                    {
                        Return (\_SB.ZPCN (0x02060000))
                    }

                    Method (ZCOF, 0, NotSerialized)
                    {
                        Return (\_SB.ZPCF (0x02060000))
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
                                    \_SB.SGDI (0x02060000)
                                    \_SB.SGDI (0x02060001)
                                }
                                Else
                                {
                                    \_SB.SGOV (0x02060000, Zero)
                                    \_SB.SGDO (0x02060000)
                                    \_SB.SGOV (0x02060001, Zero)
                                    \_SB.SGDO (0x02060001)
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
                                \_SB.ZPST (0x02060000, (Arg1 == One))
                                \_SB.ZPST (0x02060001, (Arg1 == One))
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
                            (\_SB.GGDV (0x02060000) == Zero)))
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

                    /* TRPE(Arg0, settle ms): the Thunderbolt rail alone, the root port's D3 and link */
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
                                    \_SB.PCI0.S30.PSTA = 0x03
                                    \_SB.PCI0.S30.LDIS = One
                                    /* the link drops at once */
                                    \_SB.SGOV (0x02060000, Zero)
                                    \_SB.SGDO (0x02060000)
                                }
                                ElseIf (((\_SB.GGOV (0x02060000) == Zero) &&
                                    (\_SB.GGDV (0x02060000) == Zero)))
                                {
                                    \_SB.PCI0.S30.PSTA = Zero
                                    If ((\_SB.PCI0.S30.LDIS == One))
                                    {
                                        \_SB.PCI0.S30.LDIS = Zero
                                    }

                                    \_SB.SGDI (0x02060000)
                                    /* the link trains at once; the settle delay stays */
                                    Sleep (Arg1)
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
                            If ((\_SB.GGDV (0x02060001) == One))
                            {
                                \_SB.SGOV (0x02060001, Zero)
                                \_SB.SGDO (0x02060001)
                                Sleep (0x64)
                            }

                            \_SB.SGOV (0x02060000, Zero)
                            \_SB.SGDO (0x02060000)
                        }
                    }

                    /* the chip's reset pad 0x02060004 (XRST(0) from the root port's PCEU) */
                    Name (XRTE, Zero)
                    Method (XRST, 1, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            XRTE = Zero
                            \_SB.SGDI (0x02060004)
                        }
                        ElseIf ((Arg0 == One))
                        {
                            XRTE = One
                            \_SB.PCI0.S30.PSTA = 0x03
                            \_SB.SGOV (0x02060004, Zero)
                            \_SB.SGDO (0x02060004)
                            Sleep (0x4B)
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

                    /* TEST ONLY: the USB rail, 1 = on, its power-ups and cuts */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\_SB.GGDV (0x02060001))
                    }

                    /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                    Method (ZPOT, 0, NotSerialized)
                    {
                        Return (\_SB.ZPTO (0x02060001))
                    }

                    Method (ZCON, 0, NotSerialized)
                    {
                        Return (\_SB.ZPCN (0x02060001))
                    }

                    Method (ZCOF, 0, NotSerialized)
                    {
                        Return (\_SB.ZPCF (0x02060001))
                    }

                    /* TEST ONLY: the vendor ID, all-ones while its rail is off or DSB2's link down */
                    Method (AVND, 0, NotSerialized)
                    {
                        If (((\_SB.PCI0.S30.UPSB.DSB2.LDIS == One) ||
                            (\_SB.GGDV (0x02060001) == Zero)))
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
