/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the first Alpine Ridge (Thunderbolt 3) controller of a
 * MacBookPro13,3
 *
 * Mirrors \_SB.PCI0.PEG1 and its UPSB (SSDT "TbtPEG12" of the real
 * machine): the upstream bridge UPSB, DSB0 with the NHI (NHI0) and its Apple
 * methods TRPE (power, 2 arguments) and RTPC (the Thunderbolt vote), and the
 * hotplug downstream bridges; in the root port's scope the votes RTBT and
 * RUSB, its _PS0 and _PS3 (which cuts the power once both votes are 0), and
 * the plug GPE as the real table writes it: Scope (\_GPE) { Method (_L55) }
 * directly in the root port's scope, level-triggered. As on the real Mac
 * there is no XRIL and no XRIN. tb_macpm reports the mechanism and the plug
 * GPE it finds and keeps the controller powered: handling Alpine Ridge's
 * level-triggered plug GPE, which notifies nothing, is not written yet
 * (Titan Ridge: the MacBookPro15,1 profile). The real machine has a
 * second, identical controller under PEG2 (_L56); one is emulated.
 *
 * Simplified for QEMU's q35 (TEST ONLY, see the MacBookPro8,2 profile's
 * tb.asl and qemu-tests/profiles/README.md):
 *  - The Mac's root port is PEG1 (00:01.1); QEMU's is a pcie-root-port at 00:06.0
 *    (profile QEMU_ARGS, id tb0-rp), whose node \_SB.PCI0.S30 QEMU's DSDT
 *    has because that root port sits in the slot.
 *  - The Mac has DSB1, DSB2, DSB4 (each with a cascade of bridges below); QEMU's chain has two hotplug downstream ports, DSB1
 *    and DSB2 at device 1 and 2.
 *  - TRPE drove the root port's link and the PCH GPIO of the controller's
 *    power rail; here it only counts and flips TPWR, after Sleep (TUPD) on
 *    power-on. The OSDW () (Darwin) guard is left out.
 *  - The NHI's _DSM, _PRW and the other methods are left out, and so are
 *    the _PS0/_PS3 of UPSB, DSB0, DSB2 and NHI0: the kernel is booted with
 *    pcie_port_pm=force and the stand-in NHI driver allows D3cold on the
 *    chain, as a real port's PM capability does.
 *  - The root port's _PS3 stands for the Mac's CTBT and PCDA (CIO mailbox,
 *    link to Gen1 and L23, the power GPIOs low): TEST ONLY, it sets TPWR to
 *    0 and counts in TCOF when both votes are 0; its _PS0 does what the
 *    Mac's PCEU does for power: nothing. _L55's real body flips the RX
 *    inversion of the plug pad (SGII), which QEMU has not: here it counts
 *    in TGPE. q35's GPE block ends at 0x3f, so GPE 0x55 never fires here.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbArMB13", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)

    Scope (\_SB.PCI0.S30)
    {
        Name (RTBT, One)                // Thunderbolt vote: 1 = forced on (NHI0.RTPC)
        Name (RUSB, One)                // USB vote (the xHCI's RTPC, not emulated)
        Name (TGPE, Zero)               // TEST ONLY: _L55 runs

        /* the Mac's PCEU: PMCSR D0 and the link; power comes back in UPSB._PS0 */
        Method (_PS0, 0, Serialized)
        {
        }

        Method (_PS3, 0, Serialized)
        {
            If (((RTBT == Zero) && (RUSB == Zero)))
            {
                /* TEST ONLY: CTBT and PCDA's power GPIOs low */
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.TCOF++
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.TPWR = Zero
            }
        }

        Scope (\_GPE)
        {
            /* the plug pad's GPE; Darwin: flip its RX inversion (SGII) */
            Method (_L55, 0, NotSerialized)
            {
                \_SB.PCI0.S30.TGPE++
            }
        }

        Device (UPSB)
        {
            Name (_ADR, Zero)

            Device (DSB0)
            {
                Name (_ADR, Zero)

                Device (NHI0)
                {
                    Name (_ADR, Zero)

                    /* TEST ONLY state (profiles/README.md, "Thunderbolt"), read and set by tests */
                    Name (TPWR, One)            // 1 = powered (the Mac's GP23)
                    Name (TPLG, Zero)           // 1 = something plugged (GP04)
                    Name (TUPD, 100)            // power-up delay, ms
                    Name (TFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (TCON, Zero)           // TRPE (1) calls
                    Name (TCOF, Zero)           // TRPE (0) calls

                    /*
                     * TEST ONLY setter: Arg0 = 0 TPWR, 1 TPLG, 2 TUPD,
                     * 3 TFLT, 4 TCON, 5 TCOF; Arg1 = the value. Returns
                     * the new value, or Ones for an unknown index.
                     */
                    Method (TSET, 2, Serialized)
                    {
                        Switch (ToInteger (Arg0))
                        {
                            Case (Zero) { TPWR = Arg1 }
                            Case (One) { TPLG = Arg1 }
                            Case (0x02) { TUPD = Arg1 }
                            Case (0x03) { TFLT = Arg1 }
                            Case (0x04) { TCON = Arg1 }
                            Case (0x05) { TCOF = Arg1 }
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

                    /*
                     * Arg1: the real body sleeps Arg1 ms after the link
                     * came up, before it polls the upstream port's vendor
                     * ID (a settle delay); tb_macpm passes 0. Emulated the
                     * same way, after the TUPD delay.
                     */
                    Method (TRPE, 2, Serialized)
                    {
                        If ((Arg0 <= One))
                        {
                            If ((Arg0 == Zero))
                            {
                                TCOF++
                                If ((TFLT != One))
                                {
                                    TPWR = Zero
                                }
                            }
                            Else
                            {
                                TCON++
                                If ((TFLT == 0x02))
                                {
                                    /* TEST ONLY: the method faults before the rail is on */
                                    Local0 = Zero
                                    Local0 = (One / Local0)
                                }
                                Sleep (TUPD)
                                Sleep (Arg1)
                                TPWR = One
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
            }
        }
    }
}
