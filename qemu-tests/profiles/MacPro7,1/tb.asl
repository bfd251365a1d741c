/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - two Titan Ridge (Thunderbolt 3) controllers of a MacPro7,1
 *
 * The real SSDT "TBTPEX" of the Mac, held to the real table: the Mac Pro's
 * controllers hang below a PCIe switch, \_SB.PC04.MCP0.US00, on its
 * downstream ports DS18, DS19 (the I/O card's two here; DS09/DS0A and
 * DS1A/DS1B are the MPX modules', left out). Each downstream port plays the
 * root port's part of the other Thunderbolt 3 Macs. Every method that the
 * PCI core or tb_macpm calls (the _PS0/_PS3 of the port, UPSB, DSB0, DSB2,
 * NHI0 and the xHCI, RTPC, TRPE, SXFP, the plug GPE) and everything they
 * call is the real table's Darwin branch, with the same names, the same
 * decisions and the same order of effects, per controller:
 *
 *  - NHI0's RTPC is a stub: it returns 0 and writes no vote, and the xHCI
 *    has no RTPC at all, so RTBT and RUSB stay 1, DSB0's and DSB2's _PS3
 *    never clear GNHI/GXCI and the port's _PS3 never cuts: TRPE (two
 *    arguments) is the only power switch. TRPE (0) puts the port in D3
 *    and drives the Thunderbolt rail low (DS18: pad 0x01060004, DS19:
 *    0x01060006), leaving the USB rail (0x01060005, 0x01060007) on;
 *    TRPE (1) releases it, retrains the link and waits for the upstream
 *    port;
 *  - UGIO and CTBT as on the other Titan Ridge Macs, without the L23 gate
 *    (PUPD only logs here); the PCH kind of the port's PCDA (D3, link
 *    disable, GPCI 0, UGIO), PCEU (D0, link enable), and UPSB's PCED (GPCI
 *    1, UGIO, the link bounce after any _PS3 (IIP3), the link retry loop):
 *    after a TRPE (0) that the module did not undo first with TRPE (1),
 *    UPSB's _PS0 powers the controller up behind the module's back, since
 *    GNHI and RTBT want it on;
 *  - the plug GPE as the real table writes it: Scope (\_GPE) { Method
 *    (_E2A) } in DS18's scope and _E2B in DS19's, edge-triggered, each
 *    returning at once if the DSDT's NHI1/NHI2 is 0, whose Darwin branch
 *    is UPSB.AMPE: Notify (NHI0, 0), Bus Check;
 *  - DS18's UPSB has a second Scope (\_GPE) of its own, the DisplayPort GPE
 *    _L26, not gated by OSDW: it flips the RX inversion of its pad
 *    0x01030006 and calls DPNT, Notify (NHI0, 1), Device Check, on its own
 *    NHI only. tb_macpm must take the GPE of the port's scope only (depth
 *    1), not this one.
 * DS19's xHCI is XHC3, as on the Mac.
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the pads are ../tables/gpio.asl's model of the real DSDT's pad
 *    methods, on the real pad numbers;
 *  - the PCI config fields the AML writes and polls (PSTA, LDIS, TSPD,
 *    LRTN, the link width CWDT) are Names here, never QEMU's registers:
 *    the link trains (at x4) at once, so the waits for it end at once (the
 *    real ones give up after 1 s each) and PCED's retry loop ends after its
 *    first pass; the fixed Sleep()s stay;
 *  - the vendor IDs the AML polls (AVND) read all-ones while the rail of
 *    that function is off or the link above it disabled, a chip's ID
 *    otherwise;
 *  - the chip's CIO mailbox (UPSB's CIOR/CIOW under CRMW) answers at once
 *    while a rail is on (the real one through UPSB config 0x530-0x53C);
 *    POCR, which asks the EC to reset the chip after ten failed link
 *    retries, has no EC to ask and is never reached;
 *  - the switch's upstream port hangs below QEMU's pcie-root-port at
 *    00:06.0 (node \_SB.PCI0.S30 of QEMU's DSDT) instead of PC04.MCP0; US00,
 *    DS18 (device 0x18) and DS19 (0x19) are QEMU's x3130-upstream and
 *    xio3130-downstream with the real names and addresses, declared here
 *    (the DSDT's part on the Mac), and the DSDT's NHI1/NHI2 are Names;
 *  - each controller's chain: UPSB -> DSB0 -> NHI stand-in (edu), DSB1 an
 *    empty native pciehp slot, DSB2 -> QEMU's qemu-xhci for the xHCI,
 *    whose _PSW and _PRW are left out, as are the NHI's DPMC (the DP pad's
 *    state, for macOS) and the JTAG methods;
 *  - GPEs 0x2a and 0x2b exist in q35's block but nothing raises them: a
 *    test runs the firmware's _E2A itself, whose Notify is real ACPICA;
 *  - \OSDW is ../tables/osdw.asl's, which asks _OSI ("Darwin") (the Mac's
 *    DSDT: OSYS == 0x2710, which its PINI stores when _OSI ("Darwin")
 *    answers true).
 *
 * TEST ONLY state (prefix Z), per controller: NHI0.ZPWR and the xHCI's ZPWR
 * read the rails; ZCON/ZCOF count the Thunderbolt rail's power-ups and
 * cuts; ZPS0 counts the power-ups by UPSB's _PS0 (tb_macpm: none); ZUPD
 * adds ms to every power-up (UGIO); ZFLT faults (1: the rails never go
 * off, 2: UPSB's _PS0 powers nothing, 3: RTPC fails); ZGPE counts the plug
 * GPE's runs; ZTRP counts TRPE; DS18's UPSB.ZDPG counts its DisplayPort
 * GPE's runs and UPSB.ZDPI reads that pad's RX inversion. Every method the
 * PCI core, ACPICA or tb_macpm calls records itself in the firmware-call
 * trace (\ZTRC, ../tables/trace.asl), which the host replays on the Mac's
 * own tables.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TBTPEX", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)
    External (\_SB.GGDV, MethodObj)
    External (\_SB.GGII, MethodObj)
    External (\_SB.GGOV, MethodObj)
    External (\_SB.SGDI, MethodObj)
    External (\_SB.SGDO, MethodObj)
    External (\_SB.SGII, MethodObj)
    External (\_SB.SGOV, MethodObj)
    External (\_SB.ZPCF, MethodObj)
    External (\_SB.ZPCN, MethodObj)
    External (\_SB.ZPST, MethodObj)
    External (\_SB.ZPTO, MethodObj)
    External (\OSDW, MethodObj)

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
        /* DS18: the first controller */
        Scope (\_SB.PCI0.S30.US00.DS18)
        {
            Scope (\_GPE)
            {
                /* the plug GPE, edge: Darwin, UPSB's AMPE (Notify (NHI0, Bus Check)) */
                Method (_E2A, 0, NotSerialized)
                {
                    \ZTRC ("\\_GPE._E2A")
                    If ((NHI1 == Zero))
                    {
                        Return (Zero)
                    }

                    \_SB.PCI0.S30.US00.DS18.ZGPE++
                    If (OSDW ())
                    {
                        \_SB.PCI0.S30.US00.DS18.UPSB.AMPE ()
                    }
                }
            }

            Name (ZGPE, Zero)           // TEST ONLY: _E2A runs

            /* the port's config fields the AML touches (TEST ONLY Names) */
            Name (PSTA, Zero)
            Name (LDIS, Zero)
            Name (TSPD, Zero)
            Name (LRTN, Zero)
            Name (CWDT, 0x04)           // the link trains at x4

            /* no L23 handshake on this Mac: PUPD only logs */
            Name (PUPS, One)
            Method (PUPD, 2, Serialized)
            {
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

            /* RTBT and RUSB: never written on this Mac (NHI0's RTPC is a stub, XHC2 has none) */
            Name (GPCI, One)
            Name (GNHI, One)
            Name (GXCI, One)
            Name (RTBT, One)
            Name (RUSB, One)
            Name (CTPD, Zero)
            Method (CTBT, 0, Serialized)
            {
                If (((\_SB.GGDV (0x01060004) == One) && (\_SB.PCI0.S30.US00.DS18.UPSB.AVND () != 0xFFFFFFFF)))
                {
                    Local2 = \_SB.PCI0.S30.US00.DS18.UPSB.CRMW (0x3C, Zero, 0x02, 0x04000000, 0x04000000)
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
                    If ((\_SB.GGDV (0x01060004) == Zero))
                    {
                        \_SB.SGDI (0x01060004)
                        Local2 = One
                        CTPD = Zero
                    }
                }

                If ((Local1 != Zero))
                {
                    If ((\_SB.GGDV (0x01060005) == Zero))
                    {
                        \_SB.SGDI (0x01060005)
                        Local2 = One
                    }
                }

                If ((Local2 != Zero))
                {
                    Sleep (0x01F4)
                    /* TEST ONLY: slow firmware */
                    Sleep (\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZUPD)
                }

                Local3 = Zero
                If ((Local0 == Zero))
                {
                    If ((\_SB.GGDV (0x01060004) == One))
                    {
                        CTBT ()
                        If ((CTPD != Zero))
                        {
                            \_SB.SGOV (0x01060004, Zero)
                            \_SB.SGDO (0x01060004)
                            Local3 = One
                        }
                    }
                }

                If ((Local1 == Zero))
                {
                    If ((\_SB.GGDV (0x01060005) == One))
                    {
                        \_SB.SGOV (0x01060005, Zero)
                        \_SB.SGDO (0x01060005)
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
                \ZTRC ("\\_SB.PCI0.S30.US00.DS18._PS0")
                If (OSDW ())
                {
                    PCEU ()
                }
            }

            Method (_PS3, 0, Serialized)
            {
                \ZTRC ("\\_SB.PCI0.S30.US00.DS18._PS3")
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
                Notify (\_SB.PCI0.S30.US00.DS18, 0x02)
            }

            Device (UPSB)
            {
                Name (_ADR, Zero)

                /* its config fields the AML touches (TEST ONLY Names) */
                Name (TSPD, Zero)

                /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
                Method (AVND, 0, NotSerialized)
                {
                    If (((\_SB.PCI0.S30.US00.DS18.LDIS == One) ||
                        ((\_SB.GGDV (0x01060004) == Zero) && (\_SB.GGDV (0x01060005) == Zero))))
                    {
                        Return (0xFFFFFFFF)
                    }

                    Return (0x15EA8086)
                }

                Method (PCED, 0, Serialized)
                {
                    /* TEST ONLY fault: the power-up does not happen */
                    If ((\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZFLT == 0x02))
                    {
                        Return (Zero)
                    }

                    \_SB.PCI0.S30.US00.DS18.GPCI = One
                    If ((\_SB.PCI0.S30.US00.DS18.UGIO () != Zero))
                    {
                        \_SB.PCI0.S30.US00.DS18.PRSR = One
                    }

                    Local0 = Zero
                    Local1 = Zero
                    If ((Local1 == Zero))
                    {
                        If ((\_SB.PCI0.S30.US00.DS18.IIP3 != Zero))
                        {
                            \_SB.PCI0.S30.US00.DS18.PRSR = One
                            Local0 = One
                            \_SB.PCI0.S30.US00.DS18.LDIS = One
                        }
                    }

                    LWRT = Zero
                    LRRT = Zero
                    LPRT = Zero
                    Local3 = Zero
                    While ((Local3 == Zero))
                    {
                        Local4 = Zero
                        If ((\_SB.PCI0.S30.US00.DS18.PRSR != Zero))
                        {
                            Sleep (0x1E)
                            If (((Local0 != Zero) || (Local1 != Zero)))
                            {
                                \_SB.PCI0.S30.US00.DS18.TSPD = One
                                If ((Local1 != Zero)) {}
                                ElseIf ((Local0 != Zero))
                                {
                                    \_SB.PCI0.S30.US00.DS18.LDIS = Zero
                                }

                                /* the real AML waits for the link, then 120 ms, then the ID */
                                Sleep (0x78)
                                \_SB.PCI0.S30.US00.DS18.TSPD = 0x03
                                \_SB.PCI0.S30.US00.DS18.LRTN = One
                            }

                            /* ... and for the retrain, then 250 ms */
                            Sleep (0xFA)
                        }

                        /* the ID at once when there is one (the link trains at once) */
                        If ((AVND () != 0xFFFFFFFF))
                        {
                            Local4 = One
                        }

                        /* the speed already 8 GT/s */
                        \_SB.PCI0.S30.US00.DS18.PCIA = One
                        Local5 = ((LWRT < LWMR) && (\_SB.PCI0.S30.US00.DS18.PRSR != Zero))
                        Local6 = ((\_SB.PCI0.S30.US00.DS18.CWDT != 0x04) && ((TFLG & One) == Zero))
                        Local7 = ((Local4 == Zero) && ((TFLG & 0x02) == Zero))
                        If (((Local6 || Local7) && Local5))
                        {
                            Local1 = Zero
                            If ((LWRT >= LPMN))
                            {
                                LPRT += One
                                POCR ()
                                Local4 = Zero
                            }

                            If ((Local4 != Zero))
                            {
                                LRRT += One
                                CRMW (0x0771, Zero, 0x02, 0x0200, 0xFFFFFFFF)
                            }

                            Local0 = One
                            \_SB.PCI0.S30.US00.DS18.LDIS = One
                            \_SB.PCI0.S30.US00.DS18.PCIA = Zero
                            Sleep (0x64)
                            LWRT += One
                        }
                        Else
                        {
                            Local3 = One
                        }
                    }

                    \_SB.PCI0.S30.US00.DS18.PRSR = Zero
                    \_SB.PCI0.S30.US00.DS18.IIP3 = Zero
                    Return (Zero)
                }

                /* the DisplayPort GPE of this upstream port's own \_GPE scope: not gated by OSDW */
                Scope (\_GPE)
                {
                    Method (_L26, 0, NotSerialized)
                    {
                        \ZTRC ("\\_GPE._L26")
                        \_SB.PCI0.S30.US00.DS18.UPSB.ZDPG++
                        If ((\_SB.GGII (0x01030006) == One))
                        {
                            \_SB.SGII (0x01030006, Zero)
                        }
                        Else
                        {
                            \_SB.SGII (0x01030006, One)
                        }

                        \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.DPNT ()
                    }
                }

                Name (ZDPG, Zero)       // TEST ONLY: _L26 runs

                /* TEST ONLY: its pad's RX inversion */
                Method (ZDPI, 0, NotSerialized)
                {
                    Return (\_SB.GGII (0x01030006))
                }

                Method (AMPE, 0, Serialized)
                {
                    Notify (\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0, Zero)
                }

                Name (TFLG, Zero)
                Name (LWMR, 0x14)
                Name (LPMN, 0x0A)
                Name (LWRT, Zero)
                Name (LRRT, Zero)
                Name (LPRT, Zero)

                /*
                 * the EC's RSTB (Zero, 0x06), which resets the controller through
                 * the SMC: no EC here, and the link trains at the first try, so
                 * PCED never gets this far
                 */
                Method (POCR, 0, Serialized)
                {
                }

                /* the chip's CIO mailbox, read-modify-write, through CIOR/CIOW on the Mac */
                Method (CRMW, 5, Serialized)
                {
                    Local1 = One
                    If ((((\_SB.GGDV (0x01060004) == One) || (\_SB.GGDV (0x01060005) == One)) &&
                        (AVND () != 0xFFFFFFFF)))
                    {
                        /* TEST ONLY: the chip answers at once, the bits read back as written */
                        Local1 = Zero
                    }

                    Return (Local1)
                }

                Method (_PS0, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB._PS0")
                    /* TEST ONLY: the Thunderbolt rail's power-ups so far */
                    Local0 = \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZCON ()
                    If (OSDW ())
                    {
                        PCED ()
                        CRMW (0x0150, Zero, 0x02, 0x04000000, 0x04000000)
                        CRMW (0x0250, Zero, 0x02, 0x04000000, 0x04000000)
                    }

                    /* TEST ONLY: one more if this _PS0 powered the Thunderbolt rail */
                    If ((\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZCON () != Local0))
                    {
                        \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPS0++
                    }
                }

                /* the Darwin branch does nothing (the rest starts the ICM) */
                Method (_PS3, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB._PS3")
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
                            \_SB.PCI0.S30.US00.DS18.GNHI = Zero
                            \_SB.PCI0.S30.US00.DS18.UGIO ()
                        }

                        IIP3 = One
                    }

                    Method (POFF, 0, Serialized)
                    {
                        Return (!\_SB.PCI0.S30.US00.DS18.RTBT)
                    }

                    Method (_PS0, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0._PS0")
                        If (OSDW ())
                        {
                            PCEU ()
                        }
                    }

                    Method (_PS3, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0._PS3")
                        If (OSDW ())
                        {
                            PCDA ()
                        }
                    }

                    Device (NHI0)
                    {
                        Name (_ADR, Zero)

                        /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                        Name (ZPLG, Zero)       // 1 = something plugged (no XRIL reads it here)
                        Name (ZUPD, Zero)       // ms added to every power-up (UGIO)
                        Name (ZFLT, Zero)       // fault: 1 stuck on, 2 UPSB's _PS0 powers nothing, 3 RTPC fails
                        Name (ZTRP, Zero)       // TRPE calls
                        Name (ZPS0, Zero)       // power-ups by UPSB._PS0 (tb_macpm: none)

                        /* TEST ONLY: the Thunderbolt rail, 1 = on (what the stand-in NHI checks) */
                        Method (ZPWR, 0, NotSerialized)
                        {
                            Return (\_SB.GGDV (0x01060004))
                        }

                        /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                        Method (ZPOT, 0, NotSerialized)
                        {
                            Return (\_SB.ZPTO (0x01060004))
                        }

                        /* TEST ONLY: the Thunderbolt rail's power-ups and cuts */
                        Method (ZCON, 0, NotSerialized)
                        {
                            Return (\_SB.ZPCN (0x01060004))
                        }

                        Method (ZCOF, 0, NotSerialized)
                        {
                            Return (\_SB.ZPCF (0x01060004))
                        }

                        /*
                         * TEST ONLY setter: Arg0 = 0 the rails (1 on, 0 off), 1 ZPLG, 2 ZUPD,
                         * 3 ZFLT; Arg1 = the value. Returns the new value, or Ones for an
                         * unknown index. Recorded in the trace.
                         */
                        Method (ZSET, 2, Serialized)
                        {
                            Switch (ToInteger (Arg0))
                            {
                                Case (Zero)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPWR ",
                                        ToDecimalString (Arg1)))
                                    If (Arg1)
                                    {
                                        \_SB.SGDI (0x01060004)
                                        \_SB.SGDI (0x01060005)
                                    }
                                    Else
                                    {
                                        \_SB.SGOV (0x01060004, Zero)
                                        \_SB.SGDO (0x01060004)
                                        \_SB.SGOV (0x01060005, Zero)
                                        \_SB.SGDO (0x01060005)
                                    }
                                }
                                Case (One)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZPLG ",
                                        ToDecimalString (Arg1)))
                                    ZPLG = Arg1
                                }
                                Case (0x02)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZUPD ",
                                        ToDecimalString (Arg1)))
                                    ZUPD = Arg1
                                }
                                Case (0x03)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.ZFLT ",
                                        ToDecimalString (Arg1)))
                                    ZFLT = Arg1
                                    \_SB.ZPST (0x01060004, (Arg1 == One))
                                    \_SB.ZPST (0x01060005, (Arg1 == One))
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
                            If (((\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.LDIS == One) ||
                                (\_SB.GGDV (0x01060004) == Zero)))
                            {
                                Return (0xFFFFFFFF)
                            }

                            Return (0x15EB8086)
                        }

                        Method (PCED, 0, Serialized)
                        {
                            \_SB.PCI0.S30.US00.DS18.GNHI = One
                            If ((\_SB.PCI0.S30.US00.DS18.UGIO () != Zero))
                            {
                                \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.PRSR = One
                            }

                            If ((\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.PRSR != Zero))
                            {
                                /* the real AML waits for DSB0's link, then 150 ms */
                                Sleep (0x96)
                            }

                            /* ... and for the NHI's ID (one pass of its loop) */
                            If ((AVND () != 0xFFFFFFFF))
                            {
                                \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.PCIA = One
                            }

                            \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.PRSR = Zero
                            \_SB.PCI0.S30.US00.DS18.UPSB.DSB0.IIP3 = Zero
                        }

                        /* the real table's: a stub that writes no vote */
                        Method (RTPC, 1, Serialized)
                        {
                            \ZTRC (Concatenate ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.RTPC ",
                                ToDecimalString (Arg0)))
                            If ((ZFLT == 0x03))
                            {
                                /* TEST ONLY fault: the method fails */
                                Local0 = Zero
                                Local0 = (One / Local0)
                            }

                            Return (Zero)
                        }

                        Method (_PS0, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0._PS0")
                            If (OSDW ())
                            {
                                PCED ()
                                \_SB.PCI0.S30.US00.DS18.CTBT ()
                            }
                        }

                        Method (_PS3, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0._PS3")
                        }

                        /* the DisplayPort GPE's notify: Device Check */
                        Method (DPNT, 0, NotSerialized)
                        {
                            Notify (\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0, One)
                        }
                        /* TRPE(Arg0, settle ms): the Thunderbolt rail alone and the port's D3 */
                        Method (TRPE, 2, Serialized)
                        {
                            \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.TRPE ",
                                ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
                            ZTRP++
                            If (OSDW ())
                            {
                                If ((Arg0 <= One))
                                {
                                    If ((Arg0 == Zero))
                                    {
                                        \_SB.PCI0.S30.US00.DS18.PUPD (Zero, 0x02)
                                        \_SB.PCI0.S30.US00.DS18.PSTA = 0x03
                                        \_SB.SGOV (0x01060004, Zero)
                                        \_SB.SGDO (0x01060004)
                                    }
                                    ElseIf (((\_SB.GGOV (0x01060004) == Zero) &&
                                        (\_SB.GGDV (0x01060004) == Zero)))
                                    {
                                        \_SB.PCI0.S30.US00.DS18.PSTA = Zero
                                        \_SB.SGDI (0x01060004)
                                        Sleep (0x1E)
                                        \_SB.PCI0.S30.US00.DS18.PUPD (One, 0x02)
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
                            \ZTRC (Concatenate ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB0.NHI0.SXFP ",
                                ToDecimalString (Arg0)))
                            If ((Arg0 == Zero))
                            {
                                If ((\_SB.GGDV (0x01060005) == One))
                                {
                                    \_SB.SGOV (0x01060005, Zero)
                                    \_SB.SGDO (0x01060005)
                                    Sleep (0x64)
                                }

                                \_SB.SGOV (0x01060004, Zero)
                                \_SB.SGDO (0x01060004)
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
                            \_SB.PCI0.S30.US00.DS18.GXCI = Zero
                            \_SB.PCI0.S30.US00.DS18.UGIO ()
                        }

                        IIP3 = One
                    }

                    Method (POFF, 0, Serialized)
                    {
                        Return (!\_SB.PCI0.S30.US00.DS18.RUSB)
                    }

                    Method (_PS0, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB2._PS0")
                        If (OSDW ())
                        {
                            PCEU ()
                        }
                    }

                    Method (_PS3, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB2._PS3")
                        If (OSDW ())
                        {
                            PCDA ()
                        }
                    }

                    /* the controller's xHCI (15ec on the Mac; QEMU's qemu-xhci): no RTPC here */
                    Device (XHC2)
                    {
                        Name (_ADR, Zero)

                        /* TEST ONLY: the USB rail, 1 = on */
                        Method (ZPWR, 0, NotSerialized)
                        {
                            Return (\_SB.GGDV (0x01060005))
                        }

                        /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                        Method (ZPOT, 0, NotSerialized)
                        {
                            Return (\_SB.ZPTO (0x01060005))
                        }

                        /* TEST ONLY: the vendor ID, all-ones while its rail is off or DSB2's link down */
                        Method (AVND, 0, NotSerialized)
                        {
                            If (((\_SB.PCI0.S30.US00.DS18.UPSB.DSB2.LDIS == One) ||
                                (\_SB.GGDV (0x01060005) == Zero)))
                            {
                                Return (0xFFFFFFFF)
                            }

                            Return (0x15EC8086)
                        }

                        Method (PCED, 0, Serialized)
                        {
                            \_SB.PCI0.S30.US00.DS18.GXCI = One
                            If ((\_SB.PCI0.S30.US00.DS18.UGIO () != Zero))
                            {
                                \_SB.PCI0.S30.US00.DS18.UPSB.DSB2.PRSR = One
                            }

                            If ((\_SB.PCI0.S30.US00.DS18.UPSB.DSB2.PRSR != Zero))
                            {
                                /* the real AML waits for DSB2's link, then 150 ms */
                                Sleep (0x96)
                            }

                            /* ... and for the xHCI's ID (one pass of its loop) */
                            If ((AVND () != 0xFFFFFFFF))
                            {
                                \_SB.PCI0.S30.US00.DS18.UPSB.DSB2.PCIA = One
                            }

                            \_SB.PCI0.S30.US00.DS18.UPSB.DSB2.PRSR = Zero
                            \_SB.PCI0.S30.US00.DS18.UPSB.DSB2.IIP3 = Zero
                        }

                        Method (_PS0, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB2.XHC2._PS0")
                            If (OSDW ())
                            {
                                PCED ()
                            }
                        }

                        Method (_PS3, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS18.UPSB.DSB2.XHC2._PS3")
                        }
                    }
                }
            }
        }

        /* DS19: the second controller */
        Scope (\_SB.PCI0.S30.US00.DS19)
        {
            Scope (\_GPE)
            {
                /* the plug GPE, edge: Darwin, UPSB's AMPE (Notify (NHI0, Bus Check)) */
                Method (_E2B, 0, NotSerialized)
                {
                    \ZTRC ("\\_GPE._E2B")
                    If ((NHI2 == Zero))
                    {
                        Return (Zero)
                    }

                    \_SB.PCI0.S30.US00.DS19.ZGPE++
                    If (OSDW ())
                    {
                        \_SB.PCI0.S30.US00.DS19.UPSB.AMPE ()
                    }
                }
            }

            Name (ZGPE, Zero)           // TEST ONLY: _E2B runs

            /* the port's config fields the AML touches (TEST ONLY Names) */
            Name (PSTA, Zero)
            Name (LDIS, Zero)
            Name (TSPD, Zero)
            Name (LRTN, Zero)
            Name (CWDT, 0x04)           // the link trains at x4

            /* no L23 handshake on this Mac: PUPD only logs */
            Name (PUPS, One)
            Method (PUPD, 2, Serialized)
            {
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

            /* RTBT and RUSB: never written on this Mac (NHI0's RTPC is a stub, XHC2 has none) */
            Name (GPCI, One)
            Name (GNHI, One)
            Name (GXCI, One)
            Name (RTBT, One)
            Name (RUSB, One)
            Name (CTPD, Zero)
            Method (CTBT, 0, Serialized)
            {
                If (((\_SB.GGDV (0x01060006) == One) && (\_SB.PCI0.S30.US00.DS19.UPSB.AVND () != 0xFFFFFFFF)))
                {
                    Local2 = \_SB.PCI0.S30.US00.DS19.UPSB.CRMW (0x3C, Zero, 0x02, 0x04000000, 0x04000000)
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
                    If ((\_SB.GGDV (0x01060006) == Zero))
                    {
                        \_SB.SGDI (0x01060006)
                        Local2 = One
                        CTPD = Zero
                    }
                }

                If ((Local1 != Zero))
                {
                    If ((\_SB.GGDV (0x01060007) == Zero))
                    {
                        \_SB.SGDI (0x01060007)
                        Local2 = One
                    }
                }

                If ((Local2 != Zero))
                {
                    Sleep (0x01F4)
                    /* TEST ONLY: slow firmware */
                    Sleep (\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZUPD)
                }

                Local3 = Zero
                If ((Local0 == Zero))
                {
                    If ((\_SB.GGDV (0x01060006) == One))
                    {
                        CTBT ()
                        If ((CTPD != Zero))
                        {
                            \_SB.SGOV (0x01060006, Zero)
                            \_SB.SGDO (0x01060006)
                            Local3 = One
                        }
                    }
                }

                If ((Local1 == Zero))
                {
                    If ((\_SB.GGDV (0x01060007) == One))
                    {
                        \_SB.SGOV (0x01060007, Zero)
                        \_SB.SGDO (0x01060007)
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
                \ZTRC ("\\_SB.PCI0.S30.US00.DS19._PS0")
                If (OSDW ())
                {
                    PCEU ()
                }
            }

            Method (_PS3, 0, Serialized)
            {
                \ZTRC ("\\_SB.PCI0.S30.US00.DS19._PS3")
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
                Notify (\_SB.PCI0.S30.US00.DS19, 0x02)
            }

            Device (UPSB)
            {
                Name (_ADR, Zero)

                /* its config fields the AML touches (TEST ONLY Names) */
                Name (TSPD, Zero)

                /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
                Method (AVND, 0, NotSerialized)
                {
                    If (((\_SB.PCI0.S30.US00.DS19.LDIS == One) ||
                        ((\_SB.GGDV (0x01060006) == Zero) && (\_SB.GGDV (0x01060007) == Zero))))
                    {
                        Return (0xFFFFFFFF)
                    }

                    Return (0x15EA8086)
                }

                Method (PCED, 0, Serialized)
                {
                    /* TEST ONLY fault: the power-up does not happen */
                    If ((\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZFLT == 0x02))
                    {
                        Return (Zero)
                    }

                    \_SB.PCI0.S30.US00.DS19.GPCI = One
                    If ((\_SB.PCI0.S30.US00.DS19.UGIO () != Zero))
                    {
                        \_SB.PCI0.S30.US00.DS19.PRSR = One
                    }

                    Local0 = Zero
                    Local1 = Zero
                    If ((Local1 == Zero))
                    {
                        If ((\_SB.PCI0.S30.US00.DS19.IIP3 != Zero))
                        {
                            \_SB.PCI0.S30.US00.DS19.PRSR = One
                            Local0 = One
                            \_SB.PCI0.S30.US00.DS19.LDIS = One
                        }
                    }

                    LWRT = Zero
                    LRRT = Zero
                    LPRT = Zero
                    Local3 = Zero
                    While ((Local3 == Zero))
                    {
                        Local4 = Zero
                        If ((\_SB.PCI0.S30.US00.DS19.PRSR != Zero))
                        {
                            Sleep (0x1E)
                            If (((Local0 != Zero) || (Local1 != Zero)))
                            {
                                \_SB.PCI0.S30.US00.DS19.TSPD = One
                                If ((Local1 != Zero)) {}
                                ElseIf ((Local0 != Zero))
                                {
                                    \_SB.PCI0.S30.US00.DS19.LDIS = Zero
                                }

                                /* the real AML waits for the link, then 120 ms, then the ID */
                                Sleep (0x78)
                                \_SB.PCI0.S30.US00.DS19.TSPD = 0x03
                                \_SB.PCI0.S30.US00.DS19.LRTN = One
                            }

                            /* ... and for the retrain, then 250 ms */
                            Sleep (0xFA)
                        }

                        /* the ID at once when there is one (the link trains at once) */
                        If ((AVND () != 0xFFFFFFFF))
                        {
                            Local4 = One
                        }

                        /* the speed already 8 GT/s */
                        \_SB.PCI0.S30.US00.DS19.PCIA = One
                        Local5 = ((LWRT < LWMR) && (\_SB.PCI0.S30.US00.DS19.PRSR != Zero))
                        Local6 = ((\_SB.PCI0.S30.US00.DS19.CWDT != 0x04) && ((TFLG & One) == Zero))
                        Local7 = ((Local4 == Zero) && ((TFLG & 0x02) == Zero))
                        If (((Local6 || Local7) && Local5))
                        {
                            Local1 = Zero
                            If ((LWRT >= LPMN))
                            {
                                LPRT += One
                                POCR ()
                                Local4 = Zero
                            }

                            If ((Local4 != Zero))
                            {
                                LRRT += One
                                CRMW (0x0771, Zero, 0x02, 0x0200, 0xFFFFFFFF)
                            }

                            Local0 = One
                            \_SB.PCI0.S30.US00.DS19.LDIS = One
                            \_SB.PCI0.S30.US00.DS19.PCIA = Zero
                            Sleep (0x64)
                            LWRT += One
                        }
                        Else
                        {
                            Local3 = One
                        }
                    }

                    \_SB.PCI0.S30.US00.DS19.PRSR = Zero
                    \_SB.PCI0.S30.US00.DS19.IIP3 = Zero
                    Return (Zero)
                }
                Method (AMPE, 0, Serialized)
                {
                    Notify (\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0, Zero)
                }

                Name (TFLG, Zero)
                Name (LWMR, 0x14)
                Name (LPMN, 0x0A)
                Name (LWRT, Zero)
                Name (LRRT, Zero)
                Name (LPRT, Zero)

                /*
                 * the EC's RSTB (Zero, 0x06), which resets the controller through
                 * the SMC: no EC here, and the link trains at the first try, so
                 * PCED never gets this far
                 */
                Method (POCR, 0, Serialized)
                {
                }

                /* the chip's CIO mailbox, read-modify-write, through CIOR/CIOW on the Mac */
                Method (CRMW, 5, Serialized)
                {
                    Local1 = One
                    If ((((\_SB.GGDV (0x01060006) == One) || (\_SB.GGDV (0x01060007) == One)) &&
                        (AVND () != 0xFFFFFFFF)))
                    {
                        /* TEST ONLY: the chip answers at once, the bits read back as written */
                        Local1 = Zero
                    }

                    Return (Local1)
                }

                Method (_PS0, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB._PS0")
                    /* TEST ONLY: the Thunderbolt rail's power-ups so far */
                    Local0 = \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZCON ()
                    If (OSDW ())
                    {
                        PCED ()
                        CRMW (0x0150, Zero, 0x02, 0x04000000, 0x04000000)
                        CRMW (0x0250, Zero, 0x02, 0x04000000, 0x04000000)
                    }

                    /* TEST ONLY: one more if this _PS0 powered the Thunderbolt rail */
                    If ((\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZCON () != Local0))
                    {
                        \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPS0++
                    }
                }

                /* the Darwin branch does nothing (the rest starts the ICM) */
                Method (_PS3, 0, Serialized)
                {
                    \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB._PS3")
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
                            \_SB.PCI0.S30.US00.DS19.GNHI = Zero
                            \_SB.PCI0.S30.US00.DS19.UGIO ()
                        }

                        IIP3 = One
                    }

                    Method (POFF, 0, Serialized)
                    {
                        Return (!\_SB.PCI0.S30.US00.DS19.RTBT)
                    }

                    Method (_PS0, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0._PS0")
                        If (OSDW ())
                        {
                            PCEU ()
                        }
                    }

                    Method (_PS3, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0._PS3")
                        If (OSDW ())
                        {
                            PCDA ()
                        }
                    }

                    Device (NHI0)
                    {
                        Name (_ADR, Zero)

                        /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                        Name (ZPLG, Zero)       // 1 = something plugged (no XRIL reads it here)
                        Name (ZUPD, Zero)       // ms added to every power-up (UGIO)
                        Name (ZFLT, Zero)       // fault: 1 stuck on, 2 UPSB's _PS0 powers nothing, 3 RTPC fails
                        Name (ZTRP, Zero)       // TRPE calls
                        Name (ZPS0, Zero)       // power-ups by UPSB._PS0 (tb_macpm: none)

                        /* TEST ONLY: the Thunderbolt rail, 1 = on (what the stand-in NHI checks) */
                        Method (ZPWR, 0, NotSerialized)
                        {
                            Return (\_SB.GGDV (0x01060006))
                        }

                        /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                        Method (ZPOT, 0, NotSerialized)
                        {
                            Return (\_SB.ZPTO (0x01060006))
                        }

                        /* TEST ONLY: the Thunderbolt rail's power-ups and cuts */
                        Method (ZCON, 0, NotSerialized)
                        {
                            Return (\_SB.ZPCN (0x01060006))
                        }

                        Method (ZCOF, 0, NotSerialized)
                        {
                            Return (\_SB.ZPCF (0x01060006))
                        }

                        /*
                         * TEST ONLY setter: Arg0 = 0 the rails (1 on, 0 off), 1 ZPLG, 2 ZUPD,
                         * 3 ZFLT; Arg1 = the value. Returns the new value, or Ones for an
                         * unknown index. Recorded in the trace.
                         */
                        Method (ZSET, 2, Serialized)
                        {
                            Switch (ToInteger (Arg0))
                            {
                                Case (Zero)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPWR ",
                                        ToDecimalString (Arg1)))
                                    If (Arg1)
                                    {
                                        \_SB.SGDI (0x01060006)
                                        \_SB.SGDI (0x01060007)
                                    }
                                    Else
                                    {
                                        \_SB.SGOV (0x01060006, Zero)
                                        \_SB.SGDO (0x01060006)
                                        \_SB.SGOV (0x01060007, Zero)
                                        \_SB.SGDO (0x01060007)
                                    }
                                }
                                Case (One)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZPLG ",
                                        ToDecimalString (Arg1)))
                                    ZPLG = Arg1
                                }
                                Case (0x02)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZUPD ",
                                        ToDecimalString (Arg1)))
                                    ZUPD = Arg1
                                }
                                Case (0x03)
                                {
                                    \ZTRA (Concatenate ("set \\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.ZFLT ",
                                        ToDecimalString (Arg1)))
                                    ZFLT = Arg1
                                    \_SB.ZPST (0x01060006, (Arg1 == One))
                                    \_SB.ZPST (0x01060007, (Arg1 == One))
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
                            If (((\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.LDIS == One) ||
                                (\_SB.GGDV (0x01060006) == Zero)))
                            {
                                Return (0xFFFFFFFF)
                            }

                            Return (0x15EB8086)
                        }

                        Method (PCED, 0, Serialized)
                        {
                            \_SB.PCI0.S30.US00.DS19.GNHI = One
                            If ((\_SB.PCI0.S30.US00.DS19.UGIO () != Zero))
                            {
                                \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.PRSR = One
                            }

                            If ((\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.PRSR != Zero))
                            {
                                /* the real AML waits for DSB0's link, then 150 ms */
                                Sleep (0x96)
                            }

                            /* ... and for the NHI's ID (one pass of its loop) */
                            If ((AVND () != 0xFFFFFFFF))
                            {
                                \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.PCIA = One
                            }

                            \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.PRSR = Zero
                            \_SB.PCI0.S30.US00.DS19.UPSB.DSB0.IIP3 = Zero
                        }

                        /* the real table's: a stub that writes no vote */
                        Method (RTPC, 1, Serialized)
                        {
                            \ZTRC (Concatenate ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.RTPC ",
                                ToDecimalString (Arg0)))
                            If ((ZFLT == 0x03))
                            {
                                /* TEST ONLY fault: the method fails */
                                Local0 = Zero
                                Local0 = (One / Local0)
                            }

                            Return (Zero)
                        }

                        Method (_PS0, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0._PS0")
                            If (OSDW ())
                            {
                                PCED ()
                                \_SB.PCI0.S30.US00.DS19.CTBT ()
                            }
                        }

                        Method (_PS3, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0._PS3")
                        }
                        /* TRPE(Arg0, settle ms): the Thunderbolt rail alone and the port's D3 */
                        Method (TRPE, 2, Serialized)
                        {
                            \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.TRPE ",
                                ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
                            ZTRP++
                            If (OSDW ())
                            {
                                If ((Arg0 <= One))
                                {
                                    If ((Arg0 == Zero))
                                    {
                                        \_SB.PCI0.S30.US00.DS19.PUPD (Zero, 0x02)
                                        \_SB.PCI0.S30.US00.DS19.PSTA = 0x03
                                        \_SB.SGOV (0x01060006, Zero)
                                        \_SB.SGDO (0x01060006)
                                    }
                                    ElseIf (((\_SB.GGOV (0x01060006) == Zero) &&
                                        (\_SB.GGDV (0x01060006) == Zero)))
                                    {
                                        \_SB.PCI0.S30.US00.DS19.PSTA = Zero
                                        \_SB.SGDI (0x01060006)
                                        Sleep (0x1E)
                                        \_SB.PCI0.S30.US00.DS19.PUPD (One, 0x02)
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
                            \ZTRC (Concatenate ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB0.NHI0.SXFP ",
                                ToDecimalString (Arg0)))
                            If ((Arg0 == Zero))
                            {
                                If ((\_SB.GGDV (0x01060007) == One))
                                {
                                    \_SB.SGOV (0x01060007, Zero)
                                    \_SB.SGDO (0x01060007)
                                    Sleep (0x64)
                                }

                                \_SB.SGOV (0x01060006, Zero)
                                \_SB.SGDO (0x01060006)
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
                            \_SB.PCI0.S30.US00.DS19.GXCI = Zero
                            \_SB.PCI0.S30.US00.DS19.UGIO ()
                        }

                        IIP3 = One
                    }

                    Method (POFF, 0, Serialized)
                    {
                        Return (!\_SB.PCI0.S30.US00.DS19.RUSB)
                    }

                    Method (_PS0, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB2._PS0")
                        If (OSDW ())
                        {
                            PCEU ()
                        }
                    }

                    Method (_PS3, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB2._PS3")
                        If (OSDW ())
                        {
                            PCDA ()
                        }
                    }

                    /* the controller's xHCI (15ec on the Mac; QEMU's qemu-xhci): no RTPC here */
                    Device (XHC3)
                    {
                        Name (_ADR, Zero)

                        /* TEST ONLY: the USB rail, 1 = on */
                        Method (ZPWR, 0, NotSerialized)
                        {
                            Return (\_SB.GGDV (0x01060007))
                        }

                        /* TEST ONLY: ms that rail has been off in all (the benchmark's idle-off share) */
                        Method (ZPOT, 0, NotSerialized)
                        {
                            Return (\_SB.ZPTO (0x01060007))
                        }

                        /* TEST ONLY: the vendor ID, all-ones while its rail is off or DSB2's link down */
                        Method (AVND, 0, NotSerialized)
                        {
                            If (((\_SB.PCI0.S30.US00.DS19.UPSB.DSB2.LDIS == One) ||
                                (\_SB.GGDV (0x01060007) == Zero)))
                            {
                                Return (0xFFFFFFFF)
                            }

                            Return (0x15EC8086)
                        }

                        Method (PCED, 0, Serialized)
                        {
                            \_SB.PCI0.S30.US00.DS19.GXCI = One
                            If ((\_SB.PCI0.S30.US00.DS19.UGIO () != Zero))
                            {
                                \_SB.PCI0.S30.US00.DS19.UPSB.DSB2.PRSR = One
                            }

                            If ((\_SB.PCI0.S30.US00.DS19.UPSB.DSB2.PRSR != Zero))
                            {
                                /* the real AML waits for DSB2's link, then 150 ms */
                                Sleep (0x96)
                            }

                            /* ... and for the xHCI's ID (one pass of its loop) */
                            If ((AVND () != 0xFFFFFFFF))
                            {
                                \_SB.PCI0.S30.US00.DS19.UPSB.DSB2.PCIA = One
                            }

                            \_SB.PCI0.S30.US00.DS19.UPSB.DSB2.PRSR = Zero
                            \_SB.PCI0.S30.US00.DS19.UPSB.DSB2.IIP3 = Zero
                        }

                        Method (_PS0, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB2.XHC3._PS0")
                            If (OSDW ())
                            {
                                PCED ()
                            }
                        }

                        Method (_PS3, 0, Serialized)
                        {
                            \ZTRC ("\\_SB.PCI0.S30.US00.DS19.UPSB.DSB2.XHC3._PS3")
                        }
                    }
                }
            }
        }
    }
}
