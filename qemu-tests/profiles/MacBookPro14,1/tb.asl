/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb.asl - the Alpine Ridge (Thunderbolt 3) controller of a MacBookPro14,1
 *
 * Mirrors \_SB.PCI0.RP05 and its UPSB (SSDT "TbtOnPCH" of the real
 * machine): the controller hangs off the PCH's root port 05 (00:1c.4), not
 * off a CPU PEG port as on the 15-inch MacBookPro13,3. As there: the
 * upstream bridge UPSB, DSB0 with the NHI (NHI0) and its Apple methods TRPE
 * (power, 2 arguments) and RTPC (the Thunderbolt vote), the hotplug
 * downstream bridge DSB1 and DSB2 with the xHCI (XHC2, whose RTPC is the USB
 * vote); in the root port's scope the votes RTBT and RUSB, its _PS0 and _PS3
 * (the PCH kind: D3, link disable, the power GPIOs low once both votes are
 * 0), UPSB's _PS0 (which powers the controller again), and the plug GPE as
 * the real table writes it: Scope (\_GPE) { Method (_L32) } directly in the
 * root port's scope, level-triggered, whose Darwin branch flips the RX
 * inversion of the plug pad 0x02020012 ("CIO Plug Event") and notifies
 * nothing. No XRIL, no XRIN.
 *
 * Simplified for QEMU's q35 (TEST ONLY, see the MacBookPro13,3 profile's
 * tb.asl and qemu-tests/profiles/README.md):
 *  - QEMU's root port is a pcie-root-port at 00:06.0 (profile QEMU_ARGS),
 *    whose node \_SB.PCI0.S30 QEMU's DSDT has, in RP05's place: a port at
 *    00:1c.4 would need a function 0 beside it.
 *  - The Mac's DSB1 and DSB4 are hotplug ports with a cascade of bridges
 *    below; QEMU's chain has DSB1 (empty native pciehp slot) and DSB2 with
 *    QEMU's qemu-xhci (1b36:000d) for XHC2, without a driver in the tests.
 *  - The plug GPE is _L02, not the Mac's _L32: q35's GPE block has no
 *    source that raises 0x32, and 0x02 is the one QEMU raises on demand (a
 *    CPU hot-add or unplug request by QMP); QEMU's DSDT has _E02 for it too,
 *    which ACPICA reports at boot. The pad's RX inversion is TEST ONLY state
 *    (ZRXI) that the method flips, unless ZSTK is set.
 *  - TRPE, RTPC, the root port's _PS3 and UPSB's _PS0 set and count TEST
 *    ONLY state instead of the GPIOs, the link and XRST: _PS3 sets ZPWR to
 *    0 when both votes are 0, UPSB's _PS0 sets it to 1 after ZUPD ms
 *    (counted in ZCON) when it was 0; the root port's _PS0 (PCEU: D0, link
 *    enable, XRST(0)) does nothing for power. DSB0, DSB2, NHI0 and XHC2
 *    have no _PS0/_PS3 here. The OSDW () (Darwin) guards are left out.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "TbtOnPCH", 0x00001000)
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

        /* the Mac's PCEU: PMCSR D0, link enable, XRST(0); power comes back in UPSB._PS0 */
        Method (_PS0, 0, Serialized)
        {
        }

        Method (_PS3, 0, Serialized)
        {
            If (((RTBT == Zero) && (RUSB == Zero)))
            {
                /* TEST ONLY: CTBT, then PCDA (D3, link disable, the power GPIOs low) */
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZCOF++
                \_SB.PCI0.S30.UPSB.DSB0.NHI0.ZPWR = Zero
            }
        }

        Scope (\_GPE)
        {
            /* the plug pad's GPE (real: _L32); Darwin: flip its RX inversion (SGII) */
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
                    Name (ZPWR, One)            // 1 = powered (the Mac's pad 0x02060000)
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

                /* the controller's USB 3.1 xHCI (15d4 on the Mac, _PRW 0x6D; QEMU's qemu-xhci) */
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
