/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgpu.asl - the dGPU's node of a MacBookPro8,2 and its link handshake
 *
 * The Mac's DSDT (firmware MBP81.88Z.0047.B27), \_SB.PCI0.P0P2.GFX0 below
 * the PEG root port 00:01.0, held to the real table on the dGPU's power
 * path: what the operating system can call there, and what it decides.
 *
 * What the firmware decides about the dGPU's power: nothing but its link.
 * Neither P0P2 nor GFX0 nor HDAU has _PS0, _PS3, _PRx, _ON or _OFF, no
 * table of the Mac has a PowerResource, and the GMUX device has no power
 * method (GMSP and GMLV drive GP06, the gmux's interrupt line): the dGPU's
 * rails are the gmux's alone (DISCRETE_POWER, a register of the chip).
 * GFX0.PWRD is the handshake the operating system calls around the gmux's
 * power changes; the firmware never calls it itself:
 *  - PWRD (1): Link Disable in the root port's Link Control (ECAM
 *    0xE0008000 + 0xB0, bit 4: LNKD), 100 ms, returns 0;
 *  - PWRD (0): Link Disable cleared, a wait while Link Training (LTRN) is
 *    set, then 0 if the negotiated width (LSTS) is x8, 1 if not.
 * Same names, same decisions, same order here.
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the root port is QEMU's pcie-root-port at 00:03.0 (\_SB.PCI0.S18,
 *    00:01.0 being the harness's virtio-serial slot); its link fields are
 *    Names (QEMU models no link: Link Disable would change nothing, and it
 *    trains at once, at the width QEMU reports, not the Mac's x8);
 *  - the rest of the real GFX0 is not on the power path and not carried:
 *    the ATI ACPI interface (ATIF, AF00-AF02), the backlight (LCD, LCD1,
 *    _DOD, BRTN), _PRW (GPE 0x09), the _DSM that hands out "hda-gfx", and
 *    HDAU.
 * TEST ONLY (Z): ZPWC (../tables/zdgpu.asl) counts each PWRD and checks
 * the dGPU has power; ZLNK says whether the link is up; ZSFL (1) makes the
 * link train at x4 (LSTS), ZSFL (0) at x8 again: hardware, so the trace
 * says "set" and the replay sets the Mac's LSTS alike. PWRD records itself
 * in the firmware-call trace (\ZTRC, ../tables/trace.asl).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuMB82", 0x00001000)
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

            Method (PWRD, 1, NotSerialized)
            {
                \ZTRC (Concatenate ("\\_SB.PCI0.S18.GFX0.PWRD ", ToDecimalString (Arg0)))
                \_SB.PCI0.S18.ZPWC (Arg0)
                If (Arg0)
                {
                    LNKD = One
                    Sleep (0x64)
                    Return (Zero)
                }
                Else
                {
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
