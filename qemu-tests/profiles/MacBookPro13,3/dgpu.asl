/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgpu.asl - the dGPU's node of a MacBookPro13,3 and its link handshake
 *
 * The Mac's SSDT "PEG0GFX0" (firmware MBP133.88Z.0226.B23),
 * \_SB.PCI0.PEG0.GFX0 below the PEG root port 00:01.0, held to the real
 * table on the dGPU's power path: what the operating system can call
 * there, and what it decides.
 *
 * What the firmware decides about the dGPU's power: neither PEG0 nor
 * GFX0 nor HDAU has _PS0, _PS3, _PRx, _ON or _OFF, no table of the Mac has
 * a PowerResource, and the GMUX device has no power method (GMSP and GMLV
 * drive the gmux's interrupt pad): the dGPU's rails are the gmux's
 * (DISCRETE_POWER). GFX0.PWRD is the handshake the operating system calls
 * around the gmux's power changes; the firmware never calls it itself.
 * Unlike the older Macs', it does more than the link:
 *  - PWRD (1): saves the root port's bus numbers (BNIR: ECAM 0xE0008000 +
 *    0x18, into BNIS) and the GPU's BAR4 (BARS), then PUPD (0, 4): the L2/L3
 *    entry request (Q0L2, + 0x248 bit 7) and a wait (up to 1 s) until the
 *    port clears it; returns 0;
 *  - PWRD (0) = PUPD (1, 4), then GXWA. PUPD (1): DISCRETE_POWER = 3
 *    written to the gmux itself through its index ports (SGMX (0x750, 1,
 *    3): BOX0 at io 0x7C2 = 3, GWR at 0x7D4 = 0x50), Sleep (DLHR), BYPD
 *    (+ 0x444 bit 31) set, the L0 request (Q0L0, bit 8) and a wait until the
 *    port clears it, a wait until LTSS (+ 0xC74) reads non-zero. GXWA: the
 *    link retrained at 2.5 GT/s (PWG1: LTLS 1, LCRL; 1 unless it trains to
 *    x8), the bus numbers written back (BNIR = BNIS), the GPU's vendor ID
 *    read (1 if all-ones), the GPU's BAR4 and the port's memory window
 *    (MBAS) pointed at BARS, memory decoding on (GCMD 7 on the GPU, BCMD 6
 *    on the port), two of the GPU's link registers (index 0x0120482B and
 *    0x0120C82B through the index/data pair at BAR4 + 0x30) given bits 3-5
 *    = 5, then the GPU's command register, its BAR4, the port's command
 *    register, ITS BUS NUMBERS AND ITS MEMORY WINDOW ALL WRITTEN 0, and the
 *    link retrained at 8 GT/s (PWG3); returns GXWA's 0 or 1.
 * So after PWRD (0) the root port forwards nothing to the dGPU (secondary
 * bus 0, memory decoding off, an empty window) until the operating system
 * writes its configuration back: macOS enumerates again, Linux must
 * restore the port (apple_gmux_ng does, DOC: dGPU power). Same names, same
 * decisions, same order here, on QEMU's root port: the writes reach it.
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the root port is QEMU's pcie-root-port at 00:03.0 (\_SB.PCI0.S18,
 *    00:01.0 being the harness's virtio-serial slot). GBAR's header fields
 *    (BCMD, BNIR, MBAS) are that port's own registers, through QEMU's ECAM
 *    (q35: 0xB0000000, device 3: 0xB0018000, where the Mac's is 0xE0008000
 *    for device 1); its link fields and Intel's PEG registers (OPG0) are
 *    Names: QEMU models no link, so the link enters L2/L3 and leaves it at
 *    once (the port clears Q0L2 and Q0L0 at once, ZL23 below says which),
 *    LTSS reads 1 and LTRN 0, the width is the Mac's x8;
 *  - PEGH is the dGPU stand-in's own config space (QEMU's secondary-vga,
 *    which has no BAR4: BARS is 0);
 *  - the GPU's link registers behind BAR4 are the Names CINX and CDAT: the
 *    stand-in has no such registers, and a region at BARS (0) would be the
 *    guest's RAM;
 *  - SGMX's ports (io 0x7C2-0x7D4) are the real ones, where no gmux
 *    answers in QEMU (the simulated gmux sits in a shared-memory window):
 *    the firmware's DISCRETE_POWER = 3 reaches nobody, while the driver has
 *    powered the dGPU already;
 *  - DLHR, a field of the Mac's GNVS, is a Name here (0, as the dump reads
 *    in acpiexec; the Mac's value is not known);
 *  - the rest of the real GFX0 is not on the power path and not carried:
 *    the backlight (LCD._BCM -> ABCM -> SGMX (0x774), ABCL, _DOD), ATIF,
 *    _PRW (GPE 0x69, past q35's 0x3f), the _DSM that hands out "hda-gfx",
 *    and HDAU.
 * TEST ONLY (Z): ZPWC (../tables/zdgpu.asl) counts each PWRD and checks
 * the dGPU has power; ZL23 is the link in L2/L3, ZLNK says whether the link
 * is up; ZHWC puts the root port's header fields as each PWRD finds them
 * into the trace, before the call (the driver writes back what the last
 * PWRD rewrote); ZSFL (1) makes the link train at x4 (LSTS), ZSFL (0) at x8 again:
 * hardware, so the trace says "set" and the replay sets the Mac's LSTS
 * alike. PWRD records itself in the firmware-call trace (\ZTRC,
 * ../tables/trace.asl).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuMB13", 0x00001000)
{
    External (\_SB.PCI0.S18, DeviceObj)
    External (\_SB.PCI0.S18.ZPWC, MethodObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)

    /* the Mac's GNVS field (see the header) */
    Name (\DLHR, Zero)

    Scope (\_SB.PCI0.S18)
    {
        Device (GFX0)
        {
            /* Intel's PEG registers of the root port (real: OPG0, ECAM 0xE0008000 + the offset) */
            Name (Q0L2, Zero)           // 0x248 bit 7: L2/L3 entry request, cleared once there
            Name (Q0L0, Zero)           // 0x248 bit 8: L0 request, cleared once there
            Name (BYPD, Zero)           // 0x444 bit 31
            Name (LTSS, One)            // 0xC74 bits 0-3: non-zero once the link is back
            Name (ZL23, Zero)           // TEST ONLY: the link in L2/L3

            Method (PUPD, 2, Serialized)
            {
                If ((Arg0 == Zero))
                {
                    Q0L2 = One
                    /* the port: the link is in L2/L3 at once, the request cleared */
                    Q0L2 = Zero
                    ZL23 = One
                    Local0 = (Timer + 0x00989680)
                    While ((Timer <= Local0))
                    {
                        If ((Q0L2 == Zero))
                        {
                            Break
                        }
                    }
                }
                Else
                {
                    SGMX (0x0750, One, 0x03)
                    Sleep (DLHR)
                    BYPD = One
                    Q0L0 = One
                    /* the port: the link is in L0 at once, the request cleared */
                    Q0L0 = Zero
                    ZL23 = Zero
                    Local1 = (Timer + 0x000F4240)
                    While ((Timer <= Local1))
                    {
                        If ((Q0L0 == Zero))
                        {
                            Break
                        }
                    }

                    Local1 = (Timer + 0x000F4240)
                    While ((Timer <= Local1))
                    {
                        If ((LTSS != Zero))
                        {
                            Break
                        }
                    }
                }
            }

            /* the GPU's link registers behind its BAR4 (real: BARE at BARS + 0x30) */
            Name (CINX, Zero)
            Name (CDAT, Zero)

            Method (GXWA, 0, Serialized)
            {
                Local0 = PWG1 ()
                If ((Local0 != Zero))
                {
                    Return (One)
                }

                BNIR = BNIS
                VID0 = Zero
                Sleep (0x0A)
                If ((VID0 == 0xFFFF))
                {
                    Return (One)
                }

                BAR4 = BARS
                Local0 = ((BARS & 0xFFFF0000) | (BARS >> 0x10))
                MBAS = Local0
                GCMD = 0x07
                BCMD = 0x06
                CINX = 0x0120482B
                Local1 = CDAT
                If ((Local1 == 0xFFFFFFFF))
                {
                    Return (One)
                }

                Local1 &= 0xFFFFFFC7
                Local1 |= 0x28
                CDAT = Local1
                CINX = 0x0120C82B
                Local1 = CDAT
                If ((Local1 == 0xFFFFFFFF))
                {
                    Return (One)
                }

                Local1 &= 0xFFFFFFC7
                Local1 |= 0x28
                CDAT = Local1
                GCMD = Zero
                BAR4 = Zero
                BCMD = Zero
                BNIR = Zero
                MBAS = Zero
                Local0 = PWG3 ()
                If ((Local0 != Zero))
                {
                    Return (One)
                }

                Return (Zero)
            }

            Method (PWG1, 0, NotSerialized)
            {
                LTLS = One
                LCRL = One
                Local0 = Zero
                While (LTRN)
                {
                    If ((Local0 > 0x01F4))
                    {
                        Return (One)
                    }

                    Local0++
                    Sleep (One)
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

            Method (PWG3, 0, NotSerialized)
            {
                LTLS = 0x03
                LCRL = One
                Local0 = Zero
                While (LTRN)
                {
                    If ((Local0 > 0x01F4))
                    {
                        Return (One)
                    }

                    Local0++
                    Sleep (One)
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

            Name (_ADR, Zero)

            /* the gmux's index ports, the real ones (see the header) */
            OperationRegion (IOBR, SystemIO, 0x07C2, 0x04)
            Field (IOBR, ByteAcc, NoLock, Preserve)
            {
                BOX0,   8,
                BOX1,   8,
                BOX2,   8,
                BOX3,   8
            }

            OperationRegion (DPR1, SystemIO, 0x07D0, One)
            Field (DPR1, ByteAcc, NoLock, Preserve)
            {
                GRD,    8
            }

            OperationRegion (DPR2, SystemIO, 0x07D4, One)
            Field (DPR2, ByteAcc, NoLock, Preserve)
            {
                GWR,    8
            }

            Method (WFRD, 0, NotSerialized)
            {
                Local0 = 0xC8
                Local1 = GWR
                While ((Local0 && ((Local1 & One) == One)))
                {
                    Local2 = GRD
                    Local1 = GWR
                    Stall (0x64)
                    Local0--
                }

                Return ((Local0 == Zero))
            }

            Method (WFCD, 0, NotSerialized)
            {
                Local0 = 0xC8
                Local1 = GWR
                While ((Local0 && ((Local1 & One) == Zero)))
                {
                    Local1 = GWR
                    Stall (0x64)
                    Local0--
                }

                If ((Local1 & One))
                {
                    Local2 = GRD
                }

                Return ((Local0 == Zero))
            }

            Method (SGMX, 3, NotSerialized)
            {
                BOX0 = (0xFF & Arg2)
                If ((Arg1 >= 0x02))
                {
                    BOX1 = (0xFF & (Arg2 >> 0x08))
                }

                If ((Arg1 == 0x04))
                {
                    BOX2 = (0xFF & (Arg2 >> 0x10))
                    BOX3 = (0xFF & (Arg2 >> 0x18))
                }

                If (WFRD ()) {}
                GWR = (0xFF & Arg0)
                If (WFCD ()) {}
            }

            /* the GPU's own config space (the dGPU stand-in's) */
            OperationRegion (PEGH, PCI_Config, Zero, 0x40)
            Field (PEGH, ByteAcc, NoLock, Preserve)
            {
                VID0,   16,
                DID0,   16,
                GCMD,   8,
                Offset (0x24),
                BAR4,   32
            }

            /* the root port's header (real: GBAR, ECAM 0xE0008000; QEMU's port, see the header) */
            OperationRegion (GBAR, SystemMemory, 0xB0018000, 0x0100)
            Field (GBAR, DWordAcc, NoLock, Preserve)
            {
                Offset (0x04),
                BCMD,   8,
                Offset (0x18),
                BNIR,   32,
                Offset (0x20),
                MBAS,   32
            }

            /* its Link Control, Link Status, Link Control 2 (real: GBAR + 0xB0, 0xB2, 0xD0) */
            Name (LCRL, Zero)           // 0xB0 bit 5: Retrain Link
            Name (LSTS, 0x08)           // 0xB2 bits 4-9: negotiated width, x8
            Name (LTRN, Zero)           // 0xB2 bit 11: Link Training
            Name (LTLS, Zero)           // 0xD0 bits 0-3: Target Link Speed

            Name (BNIS, Zero)
            Name (BARS, Zero)
            Method (PWRD, 1, NotSerialized)
            {
                ZHWC ()
                \ZTRC (Concatenate ("\\_SB.PCI0.S18.GFX0.PWRD ", ToDecimalString (Arg0)))
                \_SB.PCI0.S18.ZPWC (Arg0)
                Local0 = Zero
                If (Arg0)
                {
                    BNIS = BNIR
                    BARS = BAR4
                    PUPD (Zero, 0x04)
                    Local0 = Zero
                }
                Else
                {
                    PUPD (One, 0x04)
                    Local0 = GXWA ()
                    If ((Local0 != Zero)) {}
                }

                Return (Local0)
            }

            /*
             * TEST ONLY: the root port's header as PWRD finds it, into the
             * trace before the call (the operating system may have
             * written back what the last PWRD changed): hardware, which the
             * replay sets in the Mac's tables alike.
             */
            Method (ZHWC, 0, Serialized)
            {
                \ZTRA (Concatenate ("set \\_SB.PCI0.S18.GFX0.BNIR ", ToDecimalString (BNIR)))
                \ZTRA (Concatenate ("set \\_SB.PCI0.S18.GFX0.BCMD ", ToDecimalString (BCMD)))
                \ZTRA (Concatenate ("set \\_SB.PCI0.S18.GFX0.MBAS ", ToDecimalString (MBAS)))
            }

            /* TEST ONLY: the link is up (not in L2/L3) */
            Method (ZLNK, 0, NotSerialized)
            {
                Return ((ZL23 == Zero))
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
