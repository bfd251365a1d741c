/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the Falcon Ridge Thunderbolt controller of a MacBookPro11,3
 *
 * The real SSDT "TbtPEG11" of the Mac: \_SB.PCI0.PEG1.UPSB, the upstream
 * bridge, DSB0 with the NHI (NHI0) and its Apple methods, and the hotplug
 * downstream bridges. Every method that tb_macpm calls, TRPE (the power,
 * 2 arguments) and XRIL (the plug level), what TRPE calls (PUPD, PSSR,
 * P1SR), and the other methods of the NHI's interface, XRIP, XRIO and
 * SXFP, are the real table's Darwin branch with the same names, the same
 * decisions and the same order of effects:
 *
 *  - TRPE (0): PUPD (0, 2), which saves the root port's PHY registers
 *    (PSSR, P1SR), disables its link (GLDS, through its memory-mapped
 *    config space), waits up to 1 s for it to go (G214), sets its squelch
 *    bits (GSQ1 0, GSQ2 1) and powers down two of its lane bundles (B4PD,
 *    B5PD); then the root port to D3 (PSTA 3) and the power rail, PCH
 *    GPIO 23 (GP23), off;
 *  - TRPE (1, settle), only while GP23 is off: the root port to D0, then
 *    up to five tries of GP23 on, 30 ms, PUPD (1, 2) (the PHY registers
 *    restored, a dozen lane registers and the squelch cleared, the
 *    bundles powered, the link enabled, G508 set, up to 0.1 s waiting for
 *    G11A), up to 1 s waiting for the link to train (LACR: LTRN, else
 *    LTRN and LACT), Sleep (settle), the rest of that second waiting for
 *    the upstream port to answer (GP23 off and 1 s between tries), MABT
 *    set; a link at 2.5 GT/s is retrained to 5 GT/s;
 *  - XRIL returns GP04, the plug-detect line; XRIP and XRIO write its
 *    inversion and direction (GI04, GD04). XRIN and _GPE name its GPE;
 *    SXFP (0) cuts GP23 (no Darwin branch: it has none; tb_macpm never
 *    calls it).
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md, "Thunderbolt"):
 *  - The PCH GPIO fields (the DSDT's GPIO region) are Names in the root
 *    scope, \GP23, \GI04, \GD04; the plug-detect line \GP04 is a method:
 *    the chip drives it, and it reads 1 exactly while the rail is off and
 *    nothing is plugged in (ZPLG), 0 otherwise.
 *  - The root port's config fields the AML writes and polls (PSTA, LACR,
 *    LACT, LTRN, the speeds CSPD, SSPD, TSPD, LRTN) and the registers of
 *    its memory-mapped config space that PUPD writes and polls (GLDS,
 *    G214, GSQ1, GSQ2, B4PD..B7PD, G006..G0B2, G508, G11A), the upstream
 *    port's speeds and the NHI's MABT are Names, never QEMU's registers:
 *    the link goes and trains at once at 5 GT/s, so the waits for it end
 *    at once (the real ones give up after 1 s, 0.1 s) and the retraining
 *    is never needed; the fixed Sleep()s stay.
 *  - PSSR and P1SR save (1) and restore (0) 188 PHY registers of the
 *    root port (and of the dGPU's P0P2) in Names; nothing they touch
 *    decides anything here: their branches stay, the copies are left out.
 *  - The upstream port's vendor ID (UPSB.AVND), which TRPE polls, reads
 *    all-ones while the rail is off or the root port's link disabled
 *    (GLDS), Falcon Ridge's ID otherwise.
 *  - QEMU's root port is a pcie-root-port at 00:06.0, whose node
 *    \_SB.PCI0.S30 QEMU's DSDT has (profile QEMU_ARGS, id tb0-rp), in
 *    PEG1's place (00:01.1). The Mac has DSB1, DSB2, DSB4 (each with a
 *    cascade of bridges below), QEMU's chain DSB1 and DSB2 at device 1 and
 *    2, empty hotplug slots.
 *  - XRIN and the NHI's _GPE are 0x14 on the Mac; QEMU raises GPE 0x02 for
 *    real (QMP CPU hot-add or unplug request), so both say 0x02.
 *  - Left out: the config space regions themselves, _BBN, _STA, _RMV, _STR,
 *    the NHI's _DSM ("power-save") and _EJ0 (whose only branch is not
 *    Darwin's), the other ports' objects, the root port's own methods of
 *    the table (TGPE, DTBP, RMC1, RMCR, RMCW, DTLK, UTLK: not Darwin's, or
 *    unused). The real table has no _PS0/_PS3 on these ports: the kernel
 *    is booted with pcie_port_pm=force and the stand-in NHI driver gives
 *    the chain what a real port's PM capability does.
 *  - \OSDW is gmux.asl's, which asks _OSI ("Darwin") (the Mac's: OSYS ==
 *    0x2710, which its PINI stores when _OSI ("Darwin") answers).
 *
 * TEST ONLY state (prefix Z, in NHI0): ZPWR reads the rail; ZPLG is the
 * plug input; ZUPD adds ms to every power-up; ZFLT faults (1: the rail
 * never goes off, 2: TRPE (1) fails before the rail is on); ZCON/ZCOF
 * count the rail's power-ups and the firmware's cuts (ZRSW, after every
 * write of GP23); ZSET sets them. Every method tb_macpm calls records
 * itself in the firmware-call trace (\ZTRC, ../tables/trace.asl), which
 * the host replays on the Mac's own tables (replay.map).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbFrMB11", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)
    External (\OSDW, MethodObj)

    /* the PCH GPIO fields the AML uses (TEST ONLY Names) */
    Name (\GP23, One)                   // the controller's power rail, 1 = on
    Name (\GI04, Zero)                  // GPIO 4 (plug detect): RX inversion
    Name (\GD04, One)                   // GPIO 4: direction (1 = input)

    /* TEST ONLY: GPIO 4's level, which the chip drives: 1 = off, nothing plugged */
    Method (\GP04, 0, NotSerialized)
    {
        If (((\GP23 == Zero) && (\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPLG == Zero)))
        {
            Return (One)
        }

        Return (Zero)
    }

    Scope (\_SB.PCI0.S30)
    {
        /* the root port's config fields the AML touches (TEST ONLY Names) */
        Name (LACR, Zero)               // link active reporting: not capable
        Name (LRTN, Zero)
        Name (SSPD, 0x02)               // supported: 5 GT/s
        Name (CSPD, 0x02)               // current: 5 GT/s, trained
        Name (LTRN, Zero)
        Name (LACT, One)
        Name (TSPD, 0x02)
        Name (PSTA, Zero)

        /* ... and of its memory-mapped config space, which PUPD uses */
        Name (GLDS, Zero)               // link disable
        Name (G214, Zero)               // link state: down at once
        Name (GSQ1, Zero)               // squelch
        Name (GSQ2, Zero)
        Name (B4PD, Zero)               // lane bundles powered down
        Name (B5PD, Zero)
        Name (B6PD, Zero)
        Name (B7PD, Zero)
        Name (G006, Zero)               // lane registers PUPD (1) clears
        Name (G01E, Zero)
        Name (G0AA, Zero)
        Name (G0C0, Zero)
        Name (G0D2, Zero)
        Name (G1C4, Zero)
        Name (G1D0, Zero)
        Name (G1F0, Zero)
        Name (GD9C, Zero)
        Name (G0B2, Zero)
        Name (G508, Zero)
        Name (G11A, Zero)               // busy: done at once

        Device (UPSB)
        {
            Name (_ADR, Zero)
            Name (SSPD, 0x02)
            Name (TSPD, 0x02)

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If (((\GP23 == Zero) || (\_SB.PCI0.S30.GLDS == One)))
                {
                    Return (0xFFFFFFFF)
                }

                Return (0x156D8086)
            }

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI0)
                {
                    Name (_ADR, Zero)
                    Name (MABT, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPLG, Zero)           // 1 = something plugged in (GP04 low)
                    Name (ZUPD, Zero)           // ms added to every power-up
                    Name (ZFLT, Zero)           // fault: 1 stuck on, 2 TRPE (1) fails
                    Name (ZCON, Zero)           // the rail's power-ups
                    Name (ZCOF, Zero)           // the firmware's cuts of the rail
                    Name (ZLST, One)            // the rail as ZRSW last saw it

                    /* TEST ONLY: the rail, 1 = on */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\GP23)
                    }

                    /*
                     * TEST ONLY: the hardware after a write of GP23: a chip
                     * stuck on (ZFLT 1) keeps its rail; ZCON and ZCOF count.
                     */
                    Method (ZRSW, 0, Serialized)
                    {
                        If ((\GP23 != ZLST))
                        {
                            If ((\GP23 == Zero))
                            {
                                ZCOF++
                                If ((ZFLT == One))
                                {
                                    \GP23 = One
                                }
                            }
                            Else
                            {
                                ZCON++
                            }

                            ZLST = \GP23
                        }
                    }

                    /*
                     * TEST ONLY setter: Arg0 = 0 the rail GP23 (ZPWR), 1 ZPLG,
                     * 2 ZUPD, 3 ZFLT; Arg1 = the value. Returns the new value,
                     * or Ones for an unknown index. Recorded in the trace.
                     */
                    Method (ZSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero)
                            {
                                \ZTRA (Concatenate ("set \\GP23 ", ToDecimalString (Arg1)))
                                \GP23 = Arg1
                                ZRSW ()
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
                            }
                            Default
                            {
                                Return (Ones)
                            }
                        }

                        Return (Arg1)
                    }

                    /* the root port's PHY registers: Arg0 1 saves, 0 restores (copies left out) */
                    Method (PSSR, 1, Serialized)
                    {
                        If ((Arg0 == One))
                        {
                            /* 122 registers saved */
                        }
                        Else
                        {
                            /* 122 registers restored */
                        }
                    }

                    Method (P1SR, 1, Serialized)
                    {
                        If ((Arg0 == One))
                        {
                            /* 66 registers saved */
                        }
                        Else
                        {
                            /* 66 registers restored */
                        }
                    }

                    /* the root port's link and PHY: Arg0 0 down, else up; Arg1 lane bundles */
                    Method (PUPD, 2, Serialized)
                    {
                        If ((Arg0 == Zero))
                        {
                            PSSR (One)
                            P1SR (One)
                            \_SB.PCI0.S30.GLDS = One
                            Local0 = (Timer + 0x00989680)
                            While ((Timer <= Local0))
                            {
                                If ((\_SB.PCI0.S30.G214 == Zero))
                                {
                                    Break
                                }
                            }

                            \_SB.PCI0.S30.GSQ1 = Zero
                            \_SB.PCI0.S30.GSQ2 = One
                            If ((Arg1 == 0x04))
                            {
                                \_SB.PCI0.S30.B4PD = One
                                \_SB.PCI0.S30.B5PD = One
                                \_SB.PCI0.S30.B6PD = One
                                \_SB.PCI0.S30.B7PD = One
                            }

                            If ((Arg1 == 0x02))
                            {
                                \_SB.PCI0.S30.B4PD = One
                                \_SB.PCI0.S30.B5PD = One
                            }
                        }
                        Else
                        {
                            PSSR (Zero)
                            P1SR (Zero)
                            \_SB.PCI0.S30.G006 = Zero
                            \_SB.PCI0.S30.G01E = Zero
                            \_SB.PCI0.S30.G0AA = Zero
                            \_SB.PCI0.S30.G0C0 = Zero
                            \_SB.PCI0.S30.G0D2 = Zero
                            \_SB.PCI0.S30.G1C4 = Zero
                            \_SB.PCI0.S30.G1D0 = Zero
                            \_SB.PCI0.S30.G1F0 = Zero
                            \_SB.PCI0.S30.GD9C = Zero
                            \_SB.PCI0.S30.G0B2 = Zero
                            \_SB.PCI0.S30.GSQ1 = Zero
                            \_SB.PCI0.S30.GSQ2 = Zero
                            If ((Arg1 == 0x04))
                            {
                                \_SB.PCI0.S30.B4PD = Zero
                                \_SB.PCI0.S30.B5PD = Zero
                                \_SB.PCI0.S30.B6PD = Zero
                                \_SB.PCI0.S30.B7PD = Zero
                            }

                            If ((Arg1 == 0x02))
                            {
                                \_SB.PCI0.S30.B4PD = Zero
                                \_SB.PCI0.S30.B5PD = Zero
                            }

                            \_SB.PCI0.S30.GLDS = Zero
                            \_SB.PCI0.S30.G508 = One
                            Local1 = (Timer + 0x000F4240)
                            While ((Timer <= Local1))
                            {
                                If ((\_SB.PCI0.S30.G11A == Zero))
                                {
                                    Break
                                }
                            }
                        }
                    }

                    Method (TRPE, 2, Serialized)
                    {
                        \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.TRPE ",
                            ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
                        If (OSDW ())
                        {
                            If ((Arg0 <= One))
                            {
                                If ((Arg0 == Zero))
                                {
                                    PUPD (Zero, 0x02)
                                    \_SB.PCI0.S30.PSTA = 0x03
                                    \GP23 = Zero
                                    ZRSW ()
                                }
                                Else
                                {
                                    If ((ZFLT == 0x02))
                                    {
                                        /* TEST ONLY fault: the method fails before the rail is on */
                                        Local0 = Zero
                                        Local0 = (One / Local0)
                                    }

                                    Local0 = Zero
                                    If ((\GP23 == Zero))
                                    {
                                        \_SB.PCI0.S30.PSTA = Zero
                                        While (One)
                                        {
                                            \GP23 = One
                                            ZRSW ()
                                            Local1 = Zero
                                            Sleep (0x1E)
                                            /* TEST ONLY: slow firmware */
                                            Sleep (ZUPD)
                                            PUPD (One, 0x02)
                                            Local2 = (Timer + 0x00989680)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S30.LACR == Zero))
                                                {
                                                    If ((\_SB.PCI0.S30.LTRN != One))
                                                    {
                                                        Break
                                                    }
                                                }
                                                ElseIf (((\_SB.PCI0.S30.LTRN != One) &&
                                                    (\_SB.PCI0.S30.LACT == One)))
                                                {
                                                    Break
                                                }

                                                Sleep (0x0A)
                                            }

                                            Sleep (Arg1)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S30.UPSB.AVND () != 0xFFFFFFFF))
                                                {
                                                    Local1 = One
                                                    Break
                                                }

                                                Sleep (0x0A)
                                            }

                                            If ((Local1 == One))
                                            {
                                                MABT = One
                                                Break
                                            }

                                            If ((Local0 == 0x04))
                                            {
                                                Return (Zero)
                                            }

                                            Local0++
                                            \GP23 = Zero
                                            ZRSW ()
                                            Sleep (0x03E8)
                                        }

                                        If ((\_SB.PCI0.S30.CSPD == One))
                                        {
                                            If ((\_SB.PCI0.S30.SSPD == 0x02))
                                            {
                                                If ((\_SB.PCI0.S30.UPSB.SSPD == 0x02))
                                                {
                                                    If ((\_SB.PCI0.S30.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S30.TSPD = 0x02
                                                    }

                                                    If ((\_SB.PCI0.S30.UPSB.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S30.UPSB.TSPD = 0x02
                                                    }

                                                    \_SB.PCI0.S30.LRTN = One
                                                    Local2 = (Timer + 0x00989680)
                                                    While ((Timer <= Local2))
                                                    {
                                                        If ((\_SB.PCI0.S30.LACR == Zero))
                                                        {
                                                            If (((\_SB.PCI0.S30.LTRN != One) &&
                                                                (\_SB.PCI0.S30.UPSB.AVND () != 0xFFFFFFFF)))
                                                            {
                                                                Local1 = One
                                                                Break
                                                            }
                                                        }
                                                        ElseIf ((((\_SB.PCI0.S30.LTRN != One) &&
                                                            (\_SB.PCI0.S30.LACT == One)) &&
                                                            (\_SB.PCI0.S30.UPSB.AVND () != 0xFFFFFFFF)))
                                                        {
                                                            Local1 = One
                                                            Break
                                                        }

                                                        Sleep (0x0A)
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }

                        Return (Zero)
                    }

                    Method (XRIP, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.XRIP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GI04 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.XRIO ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GD04 = Arg0
                        }
                    }

                    Method (XRIL, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.XRIL")
                        Return (\GP04 ())
                    }

                    Name (XRIN, 0x02)           // real: 0x14
                    Name (_GPE, 0x02)           // real: 0x14

                    Method (SXFP, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.SXFP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 == Zero))
                        {
                            \GP23 = Zero
                            ZRSW ()
                        }
                    }
                }
            }

            Device (DSB1)
            {
                Name (_ADR, 0x00010000)         // real: 0x00030000
            }

            Device (DSB2)
            {
                Name (_ADR, 0x00020000)         // real: 0x00040000
            }
        }
    }
}
