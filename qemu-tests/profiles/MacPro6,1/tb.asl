/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the three Falcon Ridge Thunderbolt controllers of a MacPro6,1
 *
 * The real SSDT "TbtPEG10" of firmware MP61.88Z.0116.B16 (OEM "Apple"): one
 * Scope per controller, \_SB.PCI0.PEG0.BR00.BR10, BR11 and BR12 (the
 * ports of a PCIe switch behind PEG0), each with the upstream bridge UFS0,
 * UFS1 or UFS2, the downstream bridge DSB0 with the NHI (NHI0, NHI1,
 * NHI2) and its Apple methods, and the hotplug downstream bridges.
 *
 *   controller  real port  upstream  NHI   power rail  plug line  XRIN/_GPE
 *   1           BR10       UFS0      NHI0  GP45        GP04       0x14
 *   2           BR11       UFS1      NHI1  GP46        GP05       0x15
 *   3           BR12       UFS2      NHI2  GP47        GP03       0x13
 *
 * Every method that tb_macpm calls, TRPE (the power, 2 arguments) and XRIL
 * (the plug level), and the other methods of the NHI's interface, XRIP,
 * XRIO and SXFP, are the real table's Darwin branch with the same names,
 * the same decisions and the same order of effects (the three
 * controllers' are the same but for their port and GPIOs):
 *
 *  - TRPE (0, x): the port to D3 (PSTA 3), its link disabled (LDIS), up
 *    to 1 s waiting for the link to go (LACT, or the upstream port's
 *    vendor ID all-ones), then the power rail (GP45/GP46/GP47) off;
 *  - TRPE (1, settle), only while the rail is off: the port to D0, then
 *    up to five tries of the rail on, 30 ms, the link enabled, up to 1 s
 *    waiting for it to train (LTRN), Sleep (settle), the rest of that
 *    second waiting for the upstream port to answer (the rail off and 1 s
 *    between tries), MABT set; a link at 2.5 GT/s is retrained to 5 GT/s;
 *  - XRIL returns the plug-detect line (GP04/GP05/GP03); XRIP and XRIO
 *    write its inversion and direction (GI0x, GD0x). XRIN and _GPE name
 *    its GPE; SXFP (0) cuts the rail (no Darwin branch: it has none;
 *    tb_macpm never calls it).
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md, "Thunderbolt"):
 *  - The PCH GPIO fields (the DSDT's GPIO region) are Names in the root
 *    scope, \GP45..\GP47, \GI03..\GI05, \GD03..\GD05; each plug-detect
 *    line (\GP04, \GP05, \GP03) is a method: the chip drives it, and it
 *    reads 1 exactly while its controller's rail is off and nothing is
 *    plugged in (ZPLG), 0 otherwise.
 *  - Each port's config fields the AML writes and polls (PSTA, LDIS, LACR,
 *    LACT, LTRN, the speeds CSPD, SSPD, TSPD, LRTN), the upstream ports'
 *    speeds and the NHIs' MABT are Names, never QEMU's registers: the link
 *    goes and trains at once at 5 GT/s, so the waits for it end at once
 *    (the real ones give up after 1 s) and the retraining is never needed;
 *    the fixed Sleep()s stay.
 *  - The upstream ports' vendor IDs (UFSx.AVND), which TRPE polls, read
 *    all-ones while that controller's rail is off or its port's link
 *    disabled, Falcon Ridge's ID otherwise.
 *  - QEMU's root ports are pcie-root-ports at 00:06.0, 00:07.0 and 00:08.0
 *    (profile QEMU_ARGS, ids tb0-rp, tb1-rp, tb2-rp), whose nodes
 *    \_SB.PCI0.S30, S38 and S40 QEMU's DSDT has, in the switch ports'
 *    place. The Mac has DSB1..DSB4 at device 3..6 (with cascades of
 *    bridges below), QEMU's chains DSB1 and DSB2 at device 1 and 2, empty
 *    hotplug slots.
 *  - XRIN and the NHI's _GPE: QEMU raises GPE 0x02 for real (QMP CPU
 *    hot-add or unplug request), so controller 1 says 0x02 (real 0x14).
 *    Controllers 2 and 3 keep their real numbers 0x15 and 0x13, which
 *    nothing raises in QEMU: they come on only through their NHI.
 *  - Left out: the config space regions themselves, _BBN, _STA, _RMV, _STR,
 *    the NHI's _DSM ("power-save") and EJS4 (whose only branch is not
 *    Darwin's), the upstream ports' LSTX, the other ports' objects, the
 *    ports' own methods of the table (TGPE, DTBP, RMC1, RMCR, RMCW, DTLK:
 *    not Darwin's, or unused). The real table has no _PS0/_PS3 on these
 *    ports: the kernel is booted with pcie_port_pm=force and the stand-in
 *    NHI driver gives the chains what a real port's PM capability does.
 *  - \OSDW is ../tables/osdw.asl's, which asks _OSI ("Darwin") (the Mac's:
 *    OSYS == 0x2710, which its PINI stores when _OSI ("Darwin") answers).
 *
 * TEST ONLY state (prefix Z, in each NHI): ZPWR reads its rail; ZPLG is its
 * plug input; ZUPD adds ms to every power-up; ZFLT faults (1: the rail
 * never goes off, 2: TRPE (1) fails before the rail is on); ZCON/ZCOF
 * count the rail's power-ups and the firmware's cuts (ZRSW, after every
 * write of the rail); ZSET sets them. Every method tb_macpm calls records
 * itself in the firmware-call trace (\ZTRC, ../tables/trace.asl), which
 * the host replays on the Mac's own tables (replay.map).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbFrMP61", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)
    External (\_SB.PCI0.S38, DeviceObj)
    External (\_SB.PCI0.S40, DeviceObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)
    External (\OSDW, MethodObj)

    /* controller 1: the PCH GPIO fields the AML uses (TEST ONLY Names) */
    Name (\GP45, One)                   // the power rail, 1 = on
    Name (\GI04, Zero)                  // GPIO 4 (plug detect): RX inversion
    Name (\GD04, One)                   // GPIO 4: direction (1 = input)

    /* TEST ONLY: GPIO 4's level, which the chip drives: 1 = off, nothing plugged */
    Method (\GP04, 0, NotSerialized)
    {
        If (((\GP45 == Zero) && (\_SB.PCI0.S30.UFS0.DSB0.NHI0.ZPLG == Zero)))
        {
            Return (One)
        }

        Return (Zero)
    }

    /* controller 2: the PCH GPIO fields the AML uses (TEST ONLY Names) */
    Name (\GP46, One)                   // the power rail, 1 = on
    Name (\GI05, Zero)                  // GPIO 5 (plug detect): RX inversion
    Name (\GD05, One)                   // GPIO 5: direction (1 = input)

    /* TEST ONLY: GPIO 5's level, which the chip drives: 1 = off, nothing plugged */
    Method (\GP05, 0, NotSerialized)
    {
        If (((\GP46 == Zero) && (\_SB.PCI0.S38.UFS1.DSB0.NHI1.ZPLG == Zero)))
        {
            Return (One)
        }

        Return (Zero)
    }

    /* controller 3: the PCH GPIO fields the AML uses (TEST ONLY Names) */
    Name (\GP47, One)                   // the power rail, 1 = on
    Name (\GI03, Zero)                  // GPIO 3 (plug detect): RX inversion
    Name (\GD03, One)                   // GPIO 3: direction (1 = input)

    /* TEST ONLY: GPIO 3's level, which the chip drives: 1 = off, nothing plugged */
    Method (\GP03, 0, NotSerialized)
    {
        If (((\GP47 == Zero) && (\_SB.PCI0.S40.UFS2.DSB0.NHI2.ZPLG == Zero)))
        {
            Return (One)
        }

        Return (Zero)
    }

    /* the Mac's \_SB.PCI0.PEG0.BR00.BR10 */
    Scope (\_SB.PCI0.S30)
    {
        /* the port's config fields the AML touches (TEST ONLY Names) */
        Name (LACR, Zero)               // link active reporting: not capable
        Name (LDIS, Zero)
        Name (LRTN, Zero)
        Name (SSPD, 0x02)               // supported: 5 GT/s
        Name (CSPD, 0x02)               // current: 5 GT/s, trained
        Name (LTRN, Zero)
        Name (LACT, One)
        Name (TSPD, 0x02)
        Name (PSTA, Zero)

        Device (UFS0)
        {
            Name (_ADR, Zero)
            Name (SSPD, 0x02)
            Name (TSPD, 0x02)

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If (((\GP45 == Zero) || (\_SB.PCI0.S30.LDIS == One)))
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
                        Return (\GP45)
                    }

                    /*
                     * TEST ONLY: the hardware after a write of GP45: a chip
                     * stuck on (ZFLT 1) keeps its rail; ZCON and ZCOF count.
                     */
                    Method (ZRSW, 0, Serialized)
                    {
                        If ((\GP45 != ZLST))
                        {
                            If ((\GP45 == Zero))
                            {
                                ZCOF++
                                If ((ZFLT == One))
                                {
                                    \GP45 = One
                                }
                            }
                            Else
                            {
                                ZCON++
                            }

                            ZLST = \GP45
                        }
                    }

                    /*
                     * TEST ONLY setter: Arg0 = 0 the rail GP45 (ZPWR), 1 ZPLG,
                     * 2 ZUPD, 3 ZFLT; Arg1 = the value. Returns the new value,
                     * or Ones for an unknown index. Recorded in the trace.
                     */
                    Method (ZSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero)
                            {
                                \ZTRA (Concatenate ("set \\GP45 ", ToDecimalString (Arg1)))
                                \GP45 = Arg1
                                ZRSW ()
                            }
                            Case (One)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UFS0.DSB0.NHI0.ZPLG ",
                                    ToDecimalString (Arg1)))
                                ZPLG = Arg1
                            }
                            Case (0x02)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UFS0.DSB0.NHI0.ZUPD ",
                                    ToDecimalString (Arg1)))
                                ZUPD = Arg1
                            }
                            Case (0x03)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S30.UFS0.DSB0.NHI0.ZFLT ",
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

                    Method (TRPE, 2, Serialized)
                    {
                        \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S30.UFS0.DSB0.NHI0.TRPE ",
                            ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
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
                                        ElseIf ((\_SB.PCI0.S30.UFS0.AVND () == 0xFFFFFFFF))
                                        {
                                            Break
                                        }

                                        Sleep (0x0A)
                                    }

                                    \GP45 = Zero
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
                                    If ((\GP45 == Zero))
                                    {
                                        \_SB.PCI0.S30.PSTA = Zero
                                        While (One)
                                        {
                                            \GP45 = One
                                            ZRSW ()
                                            Local1 = Zero
                                            Sleep (0x1E)
                                            /* TEST ONLY: slow firmware */
                                            Sleep (ZUPD)
                                            \_SB.PCI0.S30.LDIS = Zero
                                            Local2 = (Timer + 0x00989680)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S30.LTRN != One))
                                                {
                                                    Break
                                                }

                                                Sleep (0x0A)
                                            }

                                            Sleep (Arg1)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S30.UFS0.AVND () != 0xFFFFFFFF))
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
                                            \GP45 = Zero
                                            ZRSW ()
                                            Sleep (0x03E8)
                                        }

                                        If ((\_SB.PCI0.S30.CSPD == One))
                                        {
                                            If ((\_SB.PCI0.S30.SSPD == 0x02))
                                            {
                                                If ((\_SB.PCI0.S30.UFS0.SSPD == 0x02))
                                                {
                                                    If ((\_SB.PCI0.S30.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S30.TSPD = 0x02
                                                    }

                                                    If ((\_SB.PCI0.S30.UFS0.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S30.UFS0.TSPD = 0x02
                                                    }

                                                    \_SB.PCI0.S30.LRTN = One
                                                    Local2 = (Timer + 0x00989680)
                                                    While ((Timer <= Local2))
                                                    {
                                                        If (((\_SB.PCI0.S30.LTRN != One) &&
                                                            (\_SB.PCI0.S30.UFS0.AVND () != 0xFFFFFFFF)))
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
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UFS0.DSB0.NHI0.XRIP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GI04 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UFS0.DSB0.NHI0.XRIO ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GD04 = Arg0
                        }
                    }

                    Method (XRIL, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S30.UFS0.DSB0.NHI0.XRIL")
                        Return (\GP04 ())
                    }

                    Name (XRIN, 0x02)           // real: 0x14
                    Name (_GPE, 0x02)           // real: 0x14

                    Method (SXFP, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S30.UFS0.DSB0.NHI0.SXFP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 == Zero))
                        {
                            \GP45 = Zero
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

    /* the Mac's \_SB.PCI0.PEG0.BR00.BR11 */
    Scope (\_SB.PCI0.S38)
    {
        /* the port's config fields the AML touches (TEST ONLY Names) */
        Name (LACR, Zero)               // link active reporting: not capable
        Name (LDIS, Zero)
        Name (LRTN, Zero)
        Name (SSPD, 0x02)               // supported: 5 GT/s
        Name (CSPD, 0x02)               // current: 5 GT/s, trained
        Name (LTRN, Zero)
        Name (LACT, One)
        Name (TSPD, 0x02)
        Name (PSTA, Zero)

        Device (UFS1)
        {
            Name (_ADR, Zero)
            Name (SSPD, 0x02)
            Name (TSPD, 0x02)

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If (((\GP46 == Zero) || (\_SB.PCI0.S38.LDIS == One)))
                {
                    Return (0xFFFFFFFF)
                }

                Return (0x156D8086)
            }

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI1)
                {
                    Name (_ADR, Zero)
                    Name (MABT, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPLG, Zero)           // 1 = something plugged in (GP05 low)
                    Name (ZUPD, Zero)           // ms added to every power-up
                    Name (ZFLT, Zero)           // fault: 1 stuck on, 2 TRPE (1) fails
                    Name (ZCON, Zero)           // the rail's power-ups
                    Name (ZCOF, Zero)           // the firmware's cuts of the rail
                    Name (ZLST, One)            // the rail as ZRSW last saw it

                    /* TEST ONLY: the rail, 1 = on */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\GP46)
                    }

                    /*
                     * TEST ONLY: the hardware after a write of GP46: a chip
                     * stuck on (ZFLT 1) keeps its rail; ZCON and ZCOF count.
                     */
                    Method (ZRSW, 0, Serialized)
                    {
                        If ((\GP46 != ZLST))
                        {
                            If ((\GP46 == Zero))
                            {
                                ZCOF++
                                If ((ZFLT == One))
                                {
                                    \GP46 = One
                                }
                            }
                            Else
                            {
                                ZCON++
                            }

                            ZLST = \GP46
                        }
                    }

                    /*
                     * TEST ONLY setter: Arg0 = 0 the rail GP46 (ZPWR), 1 ZPLG,
                     * 2 ZUPD, 3 ZFLT; Arg1 = the value. Returns the new value,
                     * or Ones for an unknown index. Recorded in the trace.
                     */
                    Method (ZSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero)
                            {
                                \ZTRA (Concatenate ("set \\GP46 ", ToDecimalString (Arg1)))
                                \GP46 = Arg1
                                ZRSW ()
                            }
                            Case (One)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S38.UFS1.DSB0.NHI1.ZPLG ",
                                    ToDecimalString (Arg1)))
                                ZPLG = Arg1
                            }
                            Case (0x02)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S38.UFS1.DSB0.NHI1.ZUPD ",
                                    ToDecimalString (Arg1)))
                                ZUPD = Arg1
                            }
                            Case (0x03)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S38.UFS1.DSB0.NHI1.ZFLT ",
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

                    Method (TRPE, 2, Serialized)
                    {
                        \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S38.UFS1.DSB0.NHI1.TRPE ",
                            ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
                        If (OSDW ())
                        {
                            If ((Arg0 <= One))
                            {
                                If ((Arg0 == Zero))
                                {
                                    \_SB.PCI0.S38.PSTA = 0x03
                                    \_SB.PCI0.S38.LDIS = One
                                    Local0 = (Timer + 0x00989680)
                                    While ((Timer <= Local0))
                                    {
                                        If ((\_SB.PCI0.S38.LACR == One))
                                        {
                                            If ((\_SB.PCI0.S38.LACT == Zero))
                                            {
                                                Break
                                            }
                                        }
                                        ElseIf ((\_SB.PCI0.S38.UFS1.AVND () == 0xFFFFFFFF))
                                        {
                                            Break
                                        }

                                        Sleep (0x0A)
                                    }

                                    \GP46 = Zero
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
                                    If ((\GP46 == Zero))
                                    {
                                        \_SB.PCI0.S38.PSTA = Zero
                                        While (One)
                                        {
                                            \GP46 = One
                                            ZRSW ()
                                            Local1 = Zero
                                            Sleep (0x1E)
                                            /* TEST ONLY: slow firmware */
                                            Sleep (ZUPD)
                                            \_SB.PCI0.S38.LDIS = Zero
                                            Local2 = (Timer + 0x00989680)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S38.LTRN != One))
                                                {
                                                    Break
                                                }

                                                Sleep (0x0A)
                                            }

                                            Sleep (Arg1)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S38.UFS1.AVND () != 0xFFFFFFFF))
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
                                            \GP46 = Zero
                                            ZRSW ()
                                            Sleep (0x03E8)
                                        }

                                        If ((\_SB.PCI0.S38.CSPD == One))
                                        {
                                            If ((\_SB.PCI0.S38.SSPD == 0x02))
                                            {
                                                If ((\_SB.PCI0.S38.UFS1.SSPD == 0x02))
                                                {
                                                    If ((\_SB.PCI0.S38.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S38.TSPD = 0x02
                                                    }

                                                    If ((\_SB.PCI0.S38.UFS1.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S38.UFS1.TSPD = 0x02
                                                    }

                                                    \_SB.PCI0.S38.LRTN = One
                                                    Local2 = (Timer + 0x00989680)
                                                    While ((Timer <= Local2))
                                                    {
                                                        If (((\_SB.PCI0.S38.LTRN != One) &&
                                                            (\_SB.PCI0.S38.UFS1.AVND () != 0xFFFFFFFF)))
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
                        \ZTRC (Concatenate ("\\_SB.PCI0.S38.UFS1.DSB0.NHI1.XRIP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GI05 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S38.UFS1.DSB0.NHI1.XRIO ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GD05 = Arg0
                        }
                    }

                    Method (XRIL, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S38.UFS1.DSB0.NHI1.XRIL")
                        Return (\GP05 ())
                    }

                    Name (XRIN, 0x15)           // real, never raised in QEMU
                    Name (_GPE, 0x15)           // real, never raised in QEMU

                    Method (SXFP, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S38.UFS1.DSB0.NHI1.SXFP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 == Zero))
                        {
                            \GP46 = Zero
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

    /* the Mac's \_SB.PCI0.PEG0.BR00.BR12 */
    Scope (\_SB.PCI0.S40)
    {
        /* the port's config fields the AML touches (TEST ONLY Names) */
        Name (LACR, Zero)               // link active reporting: not capable
        Name (LDIS, Zero)
        Name (LRTN, Zero)
        Name (SSPD, 0x02)               // supported: 5 GT/s
        Name (CSPD, 0x02)               // current: 5 GT/s, trained
        Name (LTRN, Zero)
        Name (LACT, One)
        Name (TSPD, 0x02)
        Name (PSTA, Zero)

        Device (UFS2)
        {
            Name (_ADR, Zero)
            Name (SSPD, 0x02)
            Name (TSPD, 0x02)

            /* TEST ONLY: the vendor ID, all-ones while unpowered or unlinked */
            Method (AVND, 0, NotSerialized)
            {
                If (((\GP47 == Zero) || (\_SB.PCI0.S40.LDIS == One)))
                {
                    Return (0xFFFFFFFF)
                }

                Return (0x156D8086)
            }

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI2)
                {
                    Name (_ADR, Zero)
                    Name (MABT, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (ZPLG, Zero)           // 1 = something plugged in (GP03 low)
                    Name (ZUPD, Zero)           // ms added to every power-up
                    Name (ZFLT, Zero)           // fault: 1 stuck on, 2 TRPE (1) fails
                    Name (ZCON, Zero)           // the rail's power-ups
                    Name (ZCOF, Zero)           // the firmware's cuts of the rail
                    Name (ZLST, One)            // the rail as ZRSW last saw it

                    /* TEST ONLY: the rail, 1 = on */
                    Method (ZPWR, 0, NotSerialized)
                    {
                        Return (\GP47)
                    }

                    /*
                     * TEST ONLY: the hardware after a write of GP47: a chip
                     * stuck on (ZFLT 1) keeps its rail; ZCON and ZCOF count.
                     */
                    Method (ZRSW, 0, Serialized)
                    {
                        If ((\GP47 != ZLST))
                        {
                            If ((\GP47 == Zero))
                            {
                                ZCOF++
                                If ((ZFLT == One))
                                {
                                    \GP47 = One
                                }
                            }
                            Else
                            {
                                ZCON++
                            }

                            ZLST = \GP47
                        }
                    }

                    /*
                     * TEST ONLY setter: Arg0 = 0 the rail GP47 (ZPWR), 1 ZPLG,
                     * 2 ZUPD, 3 ZFLT; Arg1 = the value. Returns the new value,
                     * or Ones for an unknown index. Recorded in the trace.
                     */
                    Method (ZSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero)
                            {
                                \ZTRA (Concatenate ("set \\GP47 ", ToDecimalString (Arg1)))
                                \GP47 = Arg1
                                ZRSW ()
                            }
                            Case (One)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S40.UFS2.DSB0.NHI2.ZPLG ",
                                    ToDecimalString (Arg1)))
                                ZPLG = Arg1
                            }
                            Case (0x02)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S40.UFS2.DSB0.NHI2.ZUPD ",
                                    ToDecimalString (Arg1)))
                                ZUPD = Arg1
                            }
                            Case (0x03)
                            {
                                \ZTRA (Concatenate ("set \\_SB.PCI0.S40.UFS2.DSB0.NHI2.ZFLT ",
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

                    Method (TRPE, 2, Serialized)
                    {
                        \ZTRC (Concatenate (Concatenate ("\\_SB.PCI0.S40.UFS2.DSB0.NHI2.TRPE ",
                            ToDecimalString (Arg0)), Concatenate (" ", ToDecimalString (Arg1))))
                        If (OSDW ())
                        {
                            If ((Arg0 <= One))
                            {
                                If ((Arg0 == Zero))
                                {
                                    \_SB.PCI0.S40.PSTA = 0x03
                                    \_SB.PCI0.S40.LDIS = One
                                    Local0 = (Timer + 0x00989680)
                                    While ((Timer <= Local0))
                                    {
                                        If ((\_SB.PCI0.S40.LACR == One))
                                        {
                                            If ((\_SB.PCI0.S40.LACT == Zero))
                                            {
                                                Break
                                            }
                                        }
                                        ElseIf ((\_SB.PCI0.S40.UFS2.AVND () == 0xFFFFFFFF))
                                        {
                                            Break
                                        }

                                        Sleep (0x0A)
                                    }

                                    \GP47 = Zero
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
                                    If ((\GP47 == Zero))
                                    {
                                        \_SB.PCI0.S40.PSTA = Zero
                                        While (One)
                                        {
                                            \GP47 = One
                                            ZRSW ()
                                            Local1 = Zero
                                            Sleep (0x1E)
                                            /* TEST ONLY: slow firmware */
                                            Sleep (ZUPD)
                                            \_SB.PCI0.S40.LDIS = Zero
                                            Local2 = (Timer + 0x00989680)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S40.LTRN != One))
                                                {
                                                    Break
                                                }

                                                Sleep (0x0A)
                                            }

                                            Sleep (Arg1)
                                            While ((Timer <= Local2))
                                            {
                                                If ((\_SB.PCI0.S40.UFS2.AVND () != 0xFFFFFFFF))
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
                                            \GP47 = Zero
                                            ZRSW ()
                                            Sleep (0x03E8)
                                        }

                                        If ((\_SB.PCI0.S40.CSPD == One))
                                        {
                                            If ((\_SB.PCI0.S40.SSPD == 0x02))
                                            {
                                                If ((\_SB.PCI0.S40.UFS2.SSPD == 0x02))
                                                {
                                                    If ((\_SB.PCI0.S40.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S40.TSPD = 0x02
                                                    }

                                                    If ((\_SB.PCI0.S40.UFS2.TSPD != 0x02))
                                                    {
                                                        \_SB.PCI0.S40.UFS2.TSPD = 0x02
                                                    }

                                                    \_SB.PCI0.S40.LRTN = One
                                                    Local2 = (Timer + 0x00989680)
                                                    While ((Timer <= Local2))
                                                    {
                                                        If (((\_SB.PCI0.S40.LTRN != One) &&
                                                            (\_SB.PCI0.S40.UFS2.AVND () != 0xFFFFFFFF)))
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
                        \ZTRC (Concatenate ("\\_SB.PCI0.S40.UFS2.DSB0.NHI2.XRIP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GI03 = Arg0
                        }
                    }

                    Method (XRIO, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S40.UFS2.DSB0.NHI2.XRIO ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 <= One))
                        {
                            \GD03 = Arg0
                        }
                    }

                    Method (XRIL, 0, Serialized)
                    {
                        \ZTRC ("\\_SB.PCI0.S40.UFS2.DSB0.NHI2.XRIL")
                        Return (\GP03 ())
                    }

                    Name (XRIN, 0x13)           // real, never raised in QEMU
                    Name (_GPE, 0x13)           // real, never raised in QEMU

                    Method (SXFP, 1, Serialized)
                    {
                        \ZTRC (Concatenate ("\\_SB.PCI0.S40.UFS2.DSB0.NHI2.SXFP ",
                            ToDecimalString (Arg0)))
                        If ((Arg0 == Zero))
                        {
                            \GP47 = Zero
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
