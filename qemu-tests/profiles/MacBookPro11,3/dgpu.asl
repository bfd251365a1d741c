/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgpu.asl - the dGPU's node of a MacBookPro11,3 and its link handshake
 *
 * The Mac's SSDT "TbtPEG11" (firmware MBP112.88Z.0138.B14, the table that
 * also holds the Thunderbolt port PEG1), \_SB.PCI0.P0P2.GFX0 below the PEG
 * root port 00:01.0 and the port's registers in P0P2's scope, held to the
 * real table on the dGPU's power path: what the operating system can call
 * there, and what it decides.
 *
 * What the firmware decides about the dGPU's power: nothing but its link.
 * Neither P0P2 nor GFX0 nor HDAU has _PS0, _PS3, _PRx, _ON or _OFF, no
 * table of the Mac has a PowerResource, and the GMUX device has no power
 * method (GMSP and GMLV drive GP06, the gmux's interrupt line): the dGPU's
 * rails are the gmux's alone (DISCRETE_POWER, a register of the chip).
 * GFX0.PWRD is the handshake the operating system calls around the gmux's
 * power changes; the firmware never calls it itself. It is PUPD, the PEG
 * port's power-down of its x4 lanes:
 *  - PWRD (1) = PUPD (0, 4): Link Disable (FLDS: ECAM 0xE0008000 + 0xB0,
 *    bit 4, the same bit as GFX0.LNKD), a wait (up to 1 s) until the
 *    port's link state (F214, + 0x214 bits 16-19) reads 0, the squelch
 *    bits FSQ1 cleared and FSQ2 set (+ 0xC20), the lanes' power-down bits
 *    B0PD-B3PD set (bit 31 of + 0x91C, 0x93C, 0x95C, 0x97C); returns 0;
 *  - PWRD (0) = PUPD (1, 4): the status registers written 0 (F006, F01E,
 *    F0AA, F0C0, F0D2, F0B2, F1C4, F1D0, F1F0, FD9C), FSQ1 and FSQ2
 *    cleared, the lanes powered (B0PD-B3PD 0), Link Disable cleared, F508
 *    (+ 0x508 bit 0) set, a wait (up to 1 s) until F11A (+ 0x11A bit 1)
 *    reads 0; then, in PWRD, a wait while Link Training (LTRN) is set, and
 *    0 if the negotiated width (LSTS) is x8, 1 if not.
 * Same names, same decisions, same order here. (The MacBookPro8,2 and
 * 10,1 only disable the link; 13,3 and 15,1 enter L2/L3 through other
 * registers and also touch the gmux: one stand-in cannot be all of them.)
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the root port is QEMU's pcie-root-port at 00:03.0 (\_SB.PCI0.S18,
 *    00:01.0 being the harness's virtio-serial slot); the link fields and
 *    Intel's PEG registers the AML touches are Names (QEMU models no link:
 *    it is down and up again at once, F214 and F11A read 0 and LTRN 0 at
 *    once, at the Mac's x8; QEMU has no PEG squelch or lane registers).
 *    F0B2, the link status register, is a Name of its own: writing it does
 *    not change the read-only LSTS, as on the hardware;
 *  - PSSR and P0SR are not carried: PUPD (0) saves through them some
 *    hundred registers of the port and its PHY (the port's command
 *    register, bus numbers and windows among them) and PUPD (1) writes
 *    them back; QEMU's port keeps its registers across, there is nothing
 *    to restore;
 *  - the rest of the real GFX0 is not on the power path and not carried:
 *    PWG1, PWG3 and IWAR (retraining at 2.5 and 8 GT/s, which nothing
 *    calls), its gmux access SGMX (WFRD, WFCD, over io 0x7C2-0x7D4), which
 *    only the backlight uses (LCD._BCM -> ABCM -> SGMX (0x774): the gmux's
 *    BRIGHTNESS), ABCL, _DOD, the video BIOS (_ROM, CPVB, EGNV), ATIF,
 *    _PRW, the _DSM that hands out "hda-gfx", and HDAU.
 * TEST ONLY (Z): ZPWC (../tables/zdgpu.asl) counts each PWRD and checks
 * the dGPU has power; ZLNK says whether the link is up; ZSFL (1) makes the
 * link train at x4 (LSTS), ZSFL (0) at x8 again: hardware, so the trace
 * says "set" and the replay sets the Mac's LSTS alike. PWRD records itself
 * in the firmware-call trace (\ZTRC, ../tables/trace.asl).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuM113", 0x00001000)
{
    External (\_SB.PCI0.S18, DeviceObj)
    External (\_SB.PCI0.S18.ZPWC, MethodObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)

    Scope (\_SB.PCI0.S18)
    {
        /* the PEG port's registers PUPD touches (real: ECAM 0xE0008000 + the offset) */
        Name (FLDS, Zero)               // 0x0B0 bit 4: Link Disable
        Name (F214, Zero)               // 0x214 bits 16-19: the link's state, 0 once down
        Name (FSQ1, Zero)               // 0xC20 bit 4: squelch
        Name (FSQ2, Zero)               // 0xC20 bit 5
        Name (B0PD, Zero)               // 0x91C bit 31: lane 0 powered down
        Name (B1PD, Zero)               // 0x93C bit 31
        Name (B2PD, Zero)               // 0x95C bit 31
        Name (B3PD, Zero)               // 0x97C bit 31
        Name (F508, Zero)               // 0x508 bit 0
        Name (F11A, Zero)               // 0x11A bit 1: 0 once the link is back
        Name (F006, Zero)               // status registers PUPD (1) writes 0
        Name (F01E, Zero)
        Name (F0AA, Zero)
        Name (F0C0, Zero)
        Name (F0D2, Zero)
        Name (F0B2, Zero)               // the link status (read-only: not LSTS here)
        Name (F1C4, Zero)
        Name (F1D0, Zero)
        Name (F1F0, Zero)
        Name (FD9C, Zero)

        Device (GFX0)
        {
            Name (_ADR, Zero)

            /* the root port's Link Status (real: GBAR, ECAM 0xE0008000 + 0xB2) */
            Name (LSTS, 0x08)           // bits 4-9: negotiated width, x8
            Name (LTRN, Zero)           // bit 11: Link Training

            Method (PUPD, 2, Serialized)
            {
                If ((Arg0 == Zero))
                {
                    /* (PSSR (One), P0SR (One): not carried, see the header) */
                    FLDS = One
                    Local0 = (Timer + 0x00989680)
                    While ((Timer <= Local0))
                    {
                        If ((F214 == Zero))
                        {
                            Break
                        }
                    }

                    FSQ1 = Zero
                    FSQ2 = One
                    If ((Arg1 == 0x04))
                    {
                        B0PD = One
                        B1PD = One
                        B2PD = One
                        B3PD = One
                    }

                    If ((Arg1 == 0x02))
                    {
                        B0PD = One
                        B1PD = One
                    }
                }
                Else
                {
                    /* (PSSR (Zero), P0SR (Zero): not carried, see the header) */
                    F006 = Zero
                    F01E = Zero
                    F0AA = Zero
                    F0C0 = Zero
                    F0D2 = Zero
                    F1C4 = Zero
                    F1D0 = Zero
                    F1F0 = Zero
                    FD9C = Zero
                    F0B2 = Zero
                    FSQ1 = Zero
                    FSQ2 = Zero
                    If ((Arg1 == 0x04))
                    {
                        B0PD = Zero
                        B1PD = Zero
                        B2PD = Zero
                        B3PD = Zero
                    }

                    If ((Arg1 == 0x02))
                    {
                        B0PD = Zero
                        B1PD = Zero
                    }

                    FLDS = Zero
                    F508 = One
                    Local1 = (Timer + 0x000F4240)
                    While ((Timer <= Local1))
                    {
                        If ((F11A == Zero))
                        {
                            Break
                        }
                    }
                }
            }

            Method (PWRD, 1, NotSerialized)
            {
                \ZTRC (Concatenate ("\\_SB.PCI0.S18.GFX0.PWRD ", ToDecimalString (Arg0)))
                \_SB.PCI0.S18.ZPWC (Arg0)
                If (Arg0)
                {
                    PUPD (Zero, 0x04)
                    Return (Zero)
                }
                Else
                {
                    PUPD (One, 0x04)
                    While (LTRN)
                    {
                        Sleep (0x0A)
                    }

                    If ((LSTS == 0x08))
                    {
                        Return (Zero)
                    }
                    Else
                    {
                        Return (One)
                    }
                }
            }

            /* TEST ONLY: the link is up (not disabled) */
            Method (ZLNK, 0, NotSerialized)
            {
                Return ((FLDS == Zero))
            }

            /* TEST ONLY: the link trains at x4 (1) or x8 again (0) */
            Method (ZSFL, 1, Serialized)
            {
                If (Arg0)
                {
                    Local0 = 0x04
                }
                Else
                {
                    Local0 = 0x08
                }

                \ZTRA (Concatenate ("set \\_SB.PCI0.S18.GFX0.LSTS ", ToDecimalString (Local0)))
                LSTS = Local0
            }
        }
    }
}
