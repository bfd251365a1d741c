/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the Light Ridge Thunderbolt controller of a MacBookPro8,2
 *
 * The real DSDT (firmware MBP81.88Z.0047.B27): \_SB.PCI0.PEG1.UPSB, the
 * upstream bridge, DSB0 with the NHI (NHI0) and its Apple methods, and the
 * hotplug downstream bridges. Every method that tb_macpm calls, XRPE (the
 * power, 1 argument) and XRIL (the plug level), and the other methods of
 * the NHI's interface, XRIP and XRIO, are the real table's Darwin branch
 * with the same names, the same decisions and the same order of effects:
 *
 *  - XRPE (0): the root port to D3 (PSTA 3), its link disabled (LDIS),
 *    up to 1 s waiting for the link to go (LACT, or the upstream port's
 *    vendor ID all-ones), then the power rail, PCH GPIO 23 (GP23), off;
 *  - XRPE (1), only while GP23 is off: the root port to D0, then up to
 *    five tries of GP23 on, 2 s, the link enabled, up to 1 s waiting for
 *    it to train and the upstream port to answer (GP23 off and 1 s between
 *    tries), MABT set; a link at 2.5 GT/s is retrained to 5 GT/s;
 *  - XRIL returns GP04, the plug-detect line; XRIP and XRIO write its
 *    inversion and direction (GI04, GD04). XRIN and _GPE name its GPE.
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md, "Thunderbolt"):
 *  - The PCH GPIO fields (the DSDT's GPIO region, SystemIO at GPBS) are
 *    Names in the root scope, \GP23, \GI04, \GD04; the plug-detect line
 *    \GP04 is a method: the chip drives it, and it reads 1 exactly while
 *    the rail is off and nothing is plugged in (ZPLG), 0 otherwise.
 *  - The root port's config fields the AML writes and polls (PSTA, LDIS,
 *    LACR, LACT, LTRN, the speeds CSPD, SSPD, TSPD, LRTN), the upstream
 *    port's speeds and the NHI's MABT are Names, never QEMU's registers:
 *    the link trains at once at 5 GT/s, so the waits for it end at once
 *    (the real ones give up after 1 s each) and the retraining is never
 *    needed; the fixed Sleep()s stay (XRPE (1) takes 2 s, as on the Mac).
 *  - The upstream port's vendor ID (UPSB.AVND), which the waits poll,
 *    reads all-ones while the rail is off or the root port's link
 *    disabled, Light Ridge's ID otherwise.
 *  - QEMU's root port is a pcie-root-port at 00:06.0, whose node
 *    \_SB.PCI0.S30 QEMU's DSDT has (profile QEMU_ARGS, id tb0-rp), in
 *    PEG1's place (00:01.1). The Mac has DSB1..DSB4 at device 3..6, QEMU's
 *    chain DSB1 and DSB2 at device 1 and 2, empty hotplug slots.
 *  - XRIN and the NHI's _GPE are 0x14 on the Mac; QEMU raises GPE 0x02 for
 *    real (QMP CPU hot-add or unplug request), so both say 0x02.
 *  - Left out: the config space regions themselves, _BBN, _STA, _RMV, the
 *    NHI's _DSM ("power-save") and _EJ0 (whose only branch is not
 *    Darwin's), the other ports' objects. The real tables have no
 *    _PS0/_PS3 on these ports: the kernel is booted with pcie_port_pm=force
 *    and the stand-in NHI driver gives the chain what a real port's PM
 *    capability does.
 *  - \OSDW is ../tables/osdw.asl's, which asks _OSI ("Darwin") (the Mac's:
 *    OSYS == 0x2710, which its PINI stores when _OSI ("Darwin") answers).
 *
 * TEST ONLY state (prefix Z, in NHI0): ZPWR reads the rail; ZPLG is the
 * plug input; ZUPD adds ms to every power-up; ZFLT faults (1: the rail
 * never goes off, 2: XRPE (1) fails before the rail is on); ZCON/ZCOF
 * count the rail's power-ups and the firmware's cuts (ZRSW, after every
 * write of GP23); ZSET sets them. Every method tb_macpm calls records
 * itself in the firmware-call trace (\ZTRC, ../tables/trace.asl), which
 * the host replays on the Mac's own tables (replay.map).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbLrMB82", 0x00001000)
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
        Name (LDIS, Zero)
        Name (LRTN, Zero)
        Name (SSPD, 0x02)               // supported: 5 GT/s
        Name (CSPD, 0x02)               // current: 5 GT/s, trained
        Name (LTRN, Zero)
        Name (LACT, One)
        Name (TSPD, 0x02)
        Name (PSTA, Zero)

        Device (UPSB)
        {
            Name (_ADR, Zero)
            Name (SSPD, 0x02)
            Name (TSPD, 0x02)

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If (((\GP23 == Zero) || (\_SB.PCI0.S30.LDIS == One)))
                {
                    Return (0xFFFFFFFF)
                }

                Return (0x15138086)
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
                    Name (ZFLT, Zero)           // fault: 1 stuck on, 2 XRPE (1) fails
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

                    Method (XRPE, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UPSB.DSB0.NHI0.XRPE ",
                            ToDecimalString (Arg0)))
                        If (OSDW ())
                        {
                            If ((Arg0 <= One))
                            {
                                If ((Arg0 == Zero))
                                {
                                    \_SB.PCI0.S30.PSTA = 0x03
                                    \_SB.PCI0.S30.LDIS = One
                                    Local0 = (Timer + 0x00989680)
                                    While ((Timer <= Local0))
                                    {
                                        If ((\_SB.PCI0.S30.LACR == One))
                                        {
                                            If ((\_SB.PCI0.S30.LACT == Zero))
                                            {
                                                Break
                                            }
                                        }
                                        ElseIf ((\_SB.PCI0.S30.UPSB.AVND () == 0xFFFFFFFF))
                                        {
                                            Break
                                        }

                                        Sleep (0x0A)
                                    }

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
                                            Sleep (0x07D0)
                                            /* TEST ONLY: slow firmware */
                                            Sleep (ZUPD)
                                            Local1 = Zero
                                            \_SB.PCI0.S30.LDIS = Zero
                                            Local2 = (Timer + 0x00989680)
                                            While ((Timer <= Local2))
                                            {
                                                If (((\_SB.PCI0.S30.LTRN != One) &&
                                                    (\_SB.PCI0.S30.UPSB.AVND () != 0xFFFFFFFF)))
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
                                                        If (((\_SB.PCI0.S30.LTRN != One) &&
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
