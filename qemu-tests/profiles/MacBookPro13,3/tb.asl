/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the first Alpine Ridge (Thunderbolt 3) controller of a
 * MacBookPro13,3
 *
 * Mirrors \_SB.PCI0.PEG1 and its UPSB (SSDT "TbtPEG12" of the real
 * machine): the upstream bridge UPSB, DSB0 with the NHI (NHI0) and its Apple
 * methods TRPE (power, 2 arguments) and RTPC (the Thunderbolt vote), the
 * hotplug downstream bridge DSB1 and DSB2 with the xHCI (XHC2, whose RTPC
 * is the USB vote); in the root port's scope the votes RTBT and RUSB, its
 * _PS0 and _PS3 (which cuts the power once both votes are 0), UPSB's _PS0
 * (which powers the controller again), and the plug GPE as the real table
 * writes it: Scope (\_GPE) { Method (_Lxx) } directly in the root port's
 * scope, level-triggered, whose Darwin branch flips the RX inversion of the
 * plug pad (SGII) and notifies nothing. As on the real Mac there is no XRIL
 * and no XRIN. The real machine has a second, identical controller under
 * PEG2 (_L56); one is emulated.
 *
 * Simplified for QEMU's q35 (TEST ONLY, see the MacBookPro8,2 profile's
 * tb.asl and qemu-tests/profiles/README.md):
 *  - The Mac's root port is PEG1 (00:01.1); QEMU's is a pcie-root-port at
 *    00:06.0 (profile QEMU_ARGS, id tb0-rp), whose node \_SB.PCI0.S30
 *    QEMU's DSDT has because that root port sits in the slot.
 *  - The Mac has DSB1, DSB2 (XHC2), DSB4 (each hotplug port with a cascade
 *    of bridges below); QEMU's chain has the hotplug downstream port DSB1
 *    at device 1 and DSB2 at device 2 with QEMU's qemu-xhci (1b36:000d) for
 *    XHC2, without a driver in the tests (QEMU's xHCI has no PM capability,
 *    so xhci-pci would never let it runtime-suspend).
 *  - The plug GPE is _L02, not the Mac's _L55: q35's GPE block ends at
 *    0x3f, and 0x02 is the one QEMU raises on demand (a CPU hot-add or
 *    unplug request by QMP). QEMU's DSDT has _E02 for it too, so ACPICA
 *    reports both methods at boot and dispatches its own; tb_macpm installs
 *    a handler (edge, as ACPICA has it) and runs this _L02 itself. The
 *    pad's RX inversion is TEST ONLY state (ZRXI): the method flips it as
 *    the Mac's flips the pad's, unless ZSTK (a method that clears nothing,
 *    as the non-Darwin branch) is set; QEMU cannot re-raise a level GPE
 *    that stays set, so a test raises it repeatedly instead.
 *  - TRPE, RTPC, the root port's _PS3 and UPSB's _PS0 set and count TEST
 *    ONLY state instead of the GPIOs, the CIO mailbox and the link: _PS3
 *    sets ZPWR to 0 when both votes are 0, UPSB's _PS0 sets it to 1 after
 *    ZUPD ms (counted in ZCON) when it was 0; the root port's _PS0 does
 *    what the Mac's PCEU does for power: nothing. DSB0, DSB2, NHI0 and XHC2
 *    have no _PS0/_PS3 here. The OSDW () (Darwin) guards are left out.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbArMB13", 0x00001000)
{
    External (\_SB.PCI0.S30, DeviceObj)

    Scope (\_SB.PCI0.S30)
    {
        Name (RTBT, One)                // Thunderbolt vote: 1 = forced on (NHI0.RTPC)
        Name (RUSB, One)                // USB vote (XHC2.RTPC)
        Name (ZGPE, Zero)               // TEST ONLY: _L02 runs
        Name (ZRXI, Zero)               // TEST ONLY: the plug pad's RX inversion
        Name (ZSTK, Zero)               // TEST ONLY fault: 1 = _L02 flips nothing
        Name (ZSTB, Zero)               // TEST ONLY fault: 1 = NHI0.RTPC writes nothing (MacPro7,1's)

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
            /* the plug pad's GPE (real: _L55); Darwin: flip its RX inversion (SGII) */
            Method (_L02, 0, NotSerialized)
            {
                \_SB.PCI0.S30.ZGPE++
                If ((\_SB.PCI0.S30.ZSTK == Zero))
                {
                    \_SB.PCI0.S30.ZRXI ^= One
                }
            }
        }

        Device (UPSB)
        {
            Name (_ADR, Zero)

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
                    Name (ZPWR, One)            // 1 = powered (the Mac's pad 0x01070004)
                    Name (ZPLG, Zero)           // 1 = something plugged (not read on Thunderbolt 3)
                    Name (ZUPD, 100)            // power-up delay, ms
                    Name (ZFLT, Zero)           // fault: 0 none, 1 stuck on, 2 power-up fails
                    Name (ZCON, Zero)           // power-ups: UPSB._PS0 (or TRPE (1))
                    Name (ZCOF, Zero)           // cuts: the root port's _PS3 (or TRPE (0))
                    Name (ZTRP, Zero)           // TRPE calls (tb_macpm makes none here)

                    /*
                     * TEST ONLY setter: Arg0 = 0 ZPWR, 1 ZPLG, 2 ZUPD,
                     * 3 ZFLT, 4 ZCON, 5 ZCOF, 6 ZSTK, 7 ZSTB; Arg1 = the value. Returns
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
                            Case (0x06) { \_SB.PCI0.S30.ZSTK = Arg1 }
                            Case (0x07) { \_SB.PCI0.S30.ZSTB = Arg1 }
                            Default { Return (Ones) }
                        }
                        Return (Arg1)
                    }

                    /* Arg0 <= 1: the Thunderbolt vote (1 = forced on) */
                    Method (RTPC, 1, Serialized)
                    {
                        If (((Arg0 <= One) && (\_SB.PCI0.S30.ZSTB == Zero)))
                        {
                            \_SB.PCI0.S30.RTBT = Arg0
                        }
                        Return (Zero)
                    }

                    /*
                     * Arg1: the real body sleeps Arg1 ms after the link
                     * came up, before it polls the upstream port's vendor
                     * ID (a settle delay); tb_macpm passes 0. Emulated the
                     * same way, after the ZUPD delay.
                     */
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
                                If ((ZFLT == 0x02))
                                {
                                    /* TEST ONLY: the method faults before the rail is on */
                                    Local0 = Zero
                                    Local0 = (One / Local0)
                                }
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

                /* the controller's USB 3.1 xHCI (15d4 on the Mac; QEMU's qemu-xhci) */
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
}
