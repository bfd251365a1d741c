/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgpu.asl - the dGPU's node of a MacBookPro15,1 and its link handshake
 *
 * The Mac's SSDT "PEG0GFX0" (firmware 1037.80.53.0.0), \_SB.PCI0.PEG0.GFX0
 * below the PEG root port 00:01.0, held to the real table on the dGPU's
 * power path: what the operating system can call there, and what it
 * decides.
 *
 * What the firmware decides about the dGPU's power: neither PEG0 nor
 * GFX0 nor HDAU has _PS0, _PS3, _PRx, _ON or _OFF, no table of the Mac has
 * a PowerResource, and the GPUC (gmux) device has no power method (GMSP
 * and GMLV drive the gmux's interrupt pad): the dGPU's rails are the T2
 * gmux's (DISCRETE_POWER). GFX0.PWRD is the handshake the operating system
 * calls around the gmux's power changes; the firmware never calls it
 * itself. Unlike the older Macs', it does more than the link:
 *  - PWRD (1): saves the root port's bus numbers (BNIR: ECAM 0xE0008000 +
 *    0x18, into BNIS) and the GPU's BAR4 (BARS), then PUPD (0, 4): the
 *    GPU's LTR enable cleared (LTRE: its Device Control 2, ECAM 0xE0100000
 *    + 0x80, bit 10: the GPU on bus 1), the L2/L3 entry request (Q0L2,
 *    0xE0008000 + 0x248 bit 7) and a wait (up to 1 s) until the port
 *    clears it, and only then the PHY's power-down: RC20 = 3 (+ 0xC20 bits
 *    4-5), RC38 (+ 0xC38 bit 3), the lanes' BND0-BND3 (bit 31 of + 0x91C,
 *    0x93C, 0x95C, 0x97C); then THE PORT'S BUS NUMBERS WRITTEN 0x00FEFF00
 *    (secondary bus 0xFF, subordinate 0xFE: it forwards nothing); returns 0;
 *  - PWRD (0) = PUPD (1, 4): DISCRETE_POWER = 3 written to the gmux itself
 *    through its T2 command window (MBWR (0x50, 1, 3): DAT0 = 3, CMDR =
 *    0x50, STSR = 0x41 at 0xFE0B0200, after CSTS found the window idle),
 *    200 ms and Sleep (DLHR), the PHY powered (RC20, RC38, BND0-BND3 0), the
 *    L0 request (Q0L0, bit 8) and a wait until the port clears it, a wait
 *    until LTSS (+ 0xC74) reads 0, which sets the port's LTR enable (LTR0:
 *    + 0xC8 bit 10); then, in PWRD, a wait while Link Training (LTRN) is
 *    set (1 after 500 ms), and 0 if the negotiated width (LSTS) is x8, 1 if
 *    not. The bus numbers are not written back.
 * So from PWRD (1) on the root port forwards nothing to the dGPU until the
 * operating system writes its configuration back: macOS enumerates again,
 * Linux must restore the port (apple_gmux_ng does, DOC: dGPU power). Same
 * names, same decisions, same order here, on QEMU's root port: the writes
 * reach it.
 *
 * What the real AML does to hardware, QEMU cannot (TEST ONLY, see
 * qemu-tests/profiles/README.md):
 *  - the root port is QEMU's pcie-root-port at 00:03.0 (\_SB.PCI0.S18,
 *    00:01.0 being the harness's virtio-serial slot). GBAR's header field
 *    BNIR is that port's own register, through QEMU's ECAM (q35:
 *    0xB0000000, device 3: 0xB0018000, where the Mac's is 0xE0008000 for
 *    device 1); its link fields, Intel's PEG registers (OPG0) and the GPU's
 *    LTR enable (GPU0) are Names: QEMU models no link, so the link enters
 *    L2/L3 and leaves it at once (the port clears Q0L2 and Q0L0 at once,
 *    ZL23 below says which), LTSS reads 0 and LTRN 0, the width is the
 *    Mac's x8; QEMU's port and its secondary-vga have no PHY or LTR
 *    registers;
 *  - PEGH is the dGPU stand-in's own config space (QEMU's secondary-vga,
 *    which has no BAR4: BARS is 0);
 *  - SMBX, the gmux's command window, is the real address, where nothing
 *    answers in QEMU (the simulated gmux sits in a shared-memory window):
 *    the firmware's DISCRETE_POWER = 3 reaches nobody, while the driver has
 *    powered the dGPU already;
 *  - DLHR, a field of the Mac's GNVS, is a Name here (0, as the dump reads
 *    in acpiexec; the Mac's value is not known);
 *  - the rest of the real GFX0 is not on the power path and not carried:
 *    PWG1 and PWG3 (retraining at 2.5 and 8 GT/s, which nothing calls),
 *    the backlight (LCD._BCM -> ABCM -> MBWR (0x74): the gmux's
 *    BRIGHTNESS; ABCL, _DOD), ATIF, _PRW (GPE 0x69, past q35's 0x3f), the
 *    _DSM that hands out "hda-gfx", and HDAU.
 * TEST ONLY (Z): ZPWC (../tables/zdgpu.asl) counts each PWRD and checks
 * the dGPU has power; ZL23 is the link in L2/L3, ZLNK says whether the link
 * is up; ZHWC puts the root port's header fields as each PWRD finds them
 * into the trace, before the call (the driver writes back what the last
 * PWRD rewrote); ZSFL (1) makes the link train at x4 (LSTS), ZSFL (0) at x8 again:
 * hardware, so the trace says "set" and the replay sets the Mac's LSTS
 * alike. PWRD records itself in the firmware-call trace (\ZTRC,
 * ../tables/trace.asl).
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "DgpuMB15", 0x00001000)
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
            Name (BND0, Zero)           // 0x91C bit 31: lane 0 powered down
            Name (BND1, Zero)           // 0x93C bit 31
            Name (BND2, Zero)           // 0x95C bit 31
            Name (BND3, Zero)           // 0x97C bit 31
            Name (RC20, Zero)           // 0xC20 bits 4-5
            Name (RC38, Zero)           // 0xC38 bit 3
            Name (LTSS, Zero)           // 0xC74 bits 0-3: 0 once the link is back
            Name (ZL23, Zero)           // TEST ONLY: the link in L2/L3

            /* the GPU's Device Control 2 (real: GPU0, ECAM 0xE0100000 + 0x80) */
            Name (LTRE, Zero)           // bit 10: LTR enable

            Method (PUPD, 2, Serialized)
            {
                If ((Arg0 == Zero))
                {
                    LTRE = Zero
                    Q0L2 = One
                    /* the port: the link is in L2/L3 at once, the request cleared */
                    Q0L2 = Zero
                    ZL23 = One
                    Local0 = (Timer + 0x00989680)
                    While ((Timer <= Local0))
                    {
                        If ((Q0L2 == Zero))
                        {
                            RC20 = 0x03
                            RC38 = One
                            BND0 = One
                            BND1 = One
                            BND2 = One
                            BND3 = One
                            Break
                        }
                    }
                }
                Else
                {
                    MBWR (0x50, One, 0x03)
                    Sleep (0xC8)
                    Sleep (DLHR)
                    RC20 = Zero
                    RC38 = Zero
                    BND0 = Zero
                    BND1 = Zero
                    BND2 = Zero
                    BND3 = Zero
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
                        If ((LTSS != Zero)) {}
                        Else
                        {
                            LTR0 = One
                            Break
                        }
                    }
                }
            }

            Name (_ADR, Zero)

            /* the T2 gmux's command window, the real address (see the header) */
            OperationRegion (SMBX, SystemMemory, 0xFE0B0200, 0x10)
            Field (SMBX, ByteAcc, NoLock, Preserve)
            {
                DAT0,   8,
                DAT1,   8,
                DAT2,   8,
                DAT3,   8,
                Offset (0x0E),
                CMDR,   8,
                STSR,   8
            }

            Method (CSTS, 0, NotSerialized)
            {
                Local0 = 0x0A
                Local1 = STSR
                Local2 = One
                While (((Local0 != Zero) && (Local1 != Zero)))
                {
                    Sleep (One)
                    Local0 -= One
                    Local1 = STSR
                }

                Local1 = STSR
                If ((Local1 != Zero))
                {
                    Local2 = Zero
                }

                Return (Local2)
            }

            Method (MBWR, 3, NotSerialized)
            {
                If (CSTS ())
                {
                    If ((Arg1 == One))
                    {
                        DAT0 = (Arg2 & 0xFF)
                    }
                    ElseIf ((Arg1 == 0x02))
                    {
                        DAT0 = ((Arg2 >> 0x08) & 0xFF)
                        DAT1 = (Arg2 & 0xFF)
                    }
                    ElseIf ((Arg1 == 0x04))
                    {
                        DAT0 = ((Arg2 >> 0x18) & 0xFF)
                        DAT1 = ((Arg2 >> 0x10) & 0xFF)
                        DAT2 = ((Arg2 >> 0x08) & 0xFF)
                        DAT3 = (Arg2 & 0xFF)
                    }
                    Else
                    {
                        Return (Zero)
                    }

                    CMDR = Arg0
                    STSR = (Arg1 | 0x40)
                    If (!CSTS ()) {}
                }
                Else
                {
                }
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
                Offset (0x18),
                BNIR,   32
            }

            /* its Link Status and Device Control 2 (real: GBAR + 0xB2, 0xC8) */
            Name (LSTS, 0x08)           // 0xB2 bits 4-9: negotiated width, x8
            Name (LTRN, Zero)           // 0xB2 bit 11: Link Training
            Name (LTR0, Zero)           // 0xC8 bit 10: LTR enable

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
                    BNIR = 0x00FEFF00
                }
                Else
                {
                    PUPD (One, 0x04)
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
