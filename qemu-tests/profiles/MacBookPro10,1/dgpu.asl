/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgpu.asl - the dGPU's node of a MacBookPro10,1 and its link handshake
 *
 * The Mac's SSDT "TbtPEG11" (firmware MBP101.88Z.00EE.B02, the table that
 * also holds the Thunderbolt port PEG1), \_SB.PCI0.P0P2.GFX0 below the PEG
 * root port 00:01.0, held to the real table on the dGPU's power path: what
 * the operating system can call there, and what it decides.
 *
 * What the firmware decides about the dGPU's power: nothing but its link.
 * Neither P0P2 nor GFX0 nor HDAU has _PS0, _PS3, _PRx, _ON or _OFF, no
 * table of the Mac has a PowerResource, and the GMUX device has no power
 * method (GMSP and GMLV drive GP06, the gmux's interrupt line): the dGPU's
 * rails are the gmux's alone (DISCRETE_POWER, a register of the chip).
 * GFX0.PWRD is the handshake the operating system calls around the gmux's
 * power changes; the firmware never calls it itself:
 *  - PWRD (1): Link Disable in the root port's Link Control (ECAM
 *    0xE0008000 + 0xB0, bit 4: LNKD), 100 ms, then the PEG port's clock
 *    gate CKN1 (+ 0xC38 bit 3) set, its squelch bits SQH1 cleared and SQH2
 *    set (+ 0xC20 bits 4 and 5); returns 0;
 *  - PWRD (0): SQH1, SQH2, CKN1 cleared, Link Disable cleared, a wait while
 *    Link Training (LTRN) is set, then 0 if the negotiated width (LSTS) is
 *    x8, 1 if not.
 * Same names, same decisions, same order here. (The MacBookPro8,2's PWRD
 * has the link only, not the clock and squelch bits; 11,3 and later enter
 * L2/L3 through PUPD instead: one stand-in cannot be all of them.)
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the root port is QEMU's pcie-root-port at 00:03.0 (\_SB.PCI0.S18,
 *    00:01.0 being the harness's virtio-serial slot); its link fields and
 *    Intel's PEG registers are Names (QEMU models no link: Link Disable
 *    would change nothing, it trains at once at the width QEMU reports, not
 *    the Mac's x8, and it has no PEG clock or squelch registers);
 *  - the rest of the real GFX0 is not on the power path and not carried:
 *    its gmux access SGMX (WFRD, WFCD, over io 0x7C2-0x7D4), which only the
 *    backlight uses (LCD._BCM -> ABCM -> SGMX (0x774): the gmux's
 *    BRIGHTNESS), ABCL, _DOD, the video BIOS (_ROM, CPVB, EGNV), ATIF,
 *    _PRW, the _DSM that hands out "hda-gfx", and HDAU.
 * TEST ONLY (Z): ZPWC (../tables/zdgpu.asl) counts each PWRD and checks
 * the dGPU has power; ZLNK says whether the link is up; ZSFL (1) makes the
 * link train at x4 (LSTS), ZSFL (0) at x8 again: hardware, so the trace
 * says "set" and the replay sets the Mac's LSTS alike. PWRD records itself
 * in the firmware-call trace (\ZTRC, ../tables/trace.asl).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuMB10", 0x00001000)
{
    External (\_SB.PCI0.S18, DeviceObj)
    External (\_SB.PCI0.S18.ZPWC, MethodObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)

    Scope (\_SB.PCI0.S18)
    {
        Device (GFX0)
        {
            Name (_ADR, Zero)

            /* the root port's Link Control and Link Status (real: GBAR, ECAM 0xE0008000) */
            Name (LNKD, Zero)           // 0xB0 bit 4: Link Disable
            Name (LSTS, 0x08)           // 0xB2 bits 4-9: negotiated width, x8
            Name (LTRN, Zero)           // 0xB2 bit 11: Link Training

            /* the PEG port's clock gate and squelch (real: C38H, C20H at ECAM 0xE0008C38, 0xE0008C20) */
            Name (CKN1, Zero)           // 0xC38 bit 3
            Name (SQH1, Zero)           // 0xC20 bit 4
            Name (SQH2, Zero)           // 0xC20 bit 5

            Method (PWRD, 1, NotSerialized)
            {
                \ZTRC (Concatenate ("\\_SB.PCI0.S18.GFX0.PWRD ", ToDecimalString (Arg0)))
                \_SB.PCI0.S18.ZPWC (Arg0)
                If (Arg0)
                {
                    LNKD = One
                    Sleep (0x64)
                    CKN1 = One
                    SQH1 = Zero
                    SQH2 = One
                    Return (Zero)
                }
                Else
                {
                    SQH1 = Zero
                    SQH2 = Zero
                    CKN1 = Zero
                    LNKD = Zero
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
                Return ((LNKD == Zero))
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
