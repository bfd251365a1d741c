/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gmux.asl - the indexed (port I/O, Renesas H8S/2113) gmux of a MacBookPro10,1
 *
 * Mirrors Device (GMUX) in \_SB.PCI0.LPCB of the MacBookPro10,1 DSDT
 * (firmware MBP101.88Z.00EE.B02): same _HID, _CID, _STA, _CRS, _PRW, GMGP,
 * GMSP, GMLV and the _L16 GPE method.
 *
 * Simplified for QEMU's q35:
 *  - QEMU's DSDT has no LPCB; \_SB.PCI0.LPCB is declared here as a plain
 *    container without _ADR or _HID, so it does not clash with QEMU's own
 *    node for 00:1f.0. Other SSDTs of this profile that need LPCB must use
 *    External (\_SB.PCI0.LPCB, DeviceObj) and be listed after this file.
 *  - On the Mac, GMSP and GMLV use \GP06, bit 6 of GP_LVL (GPIOBASE +
 *    0x0c) of the PCH GPIO block, a field of the DSDT's GPIO region. QEMU
 *    has no such GPIO, so \GP06 is a Name here, at the same path. GMSP
 *    keeps the real logic (it ORs its argument in, so GMSP (0) never clears
 *    the bit, exactly as on the Mac).
 *  - Nothing raises GPE 0x16 in QEMU: the harness's GPE wire
 *    (macsupport_test_gpe_wire) runs _L16 while the simulated gmux's
 *    interrupt is pending.
 *  - _L16, GMSP, GMLV record themselves in the firmware-call trace
 *    (\ZTRC, ../tables/trace.asl), which the host replays on the Mac's own
 *    tables (replay.map). No ACPI method of the Mac decides the dGPU's
 *    power (see dgpu.asl): this device only tells the gmux's interrupt.
 *  - TEST ONLY: ZGPB and ZGPR change GMGP (see below).
 *  - TEST ONLY: _CRS is a method that appends a second resource, the gmux
 *    simulator's 4 KiB window (include/macsupport/gmux_sim.h), when the
 *    harness has put its ivshmem-plain device at 00:10.0 (see ZSIM and
 *    ZMSW below). Without that device _CRS returns the real
 *    resources alone.
 *
 * The ACPI side is identical to the classic gmux of the MacBookPro8,2 (same
 * I/O window, same GPE); only the protocol spoken through the ports
 * differs. Stock QEMU cannot back these ports with a process, so the
 * driver's test transport speaks the indexed protocol over the simulator
 * window instead.
 */
DefinitionBlock ("", "SSDT", 2, "APPLE ", "GmuxMB10", 0x00001000)
{
    External (\_SB.PCI0, DeviceObj)
    External (\ZTRC, MethodObj)
    External (\ZTRA, MethodObj)

    /* Stands in for the PCH GPIO level bit GP06 (see header). */
    Name (\GP06, Zero)

    /*
     * TEST ONLY: the harness's gmux simulator is an ivshmem-plain device at
     * 00:10.0; its BAR2 (64-bit: config 0x18 low dword, 0x1C high dword) is
     * the shared memory that holds the window. QEMU's DSDT has a node for
     * 00:10.0 (\_SB.PCI0.S80) only while a device sits there, so this table
     * brings its own node for that address to read the BAR through. _STA 0
     * keeps Linux from making it a device or the PCI device's companion
     * (QEMU's S80 stays that); ACPICA still serves its PCI_Config region.
     */
    Device (\_SB.PCI0.ZSIM)
    {
        Name (_ADR, 0x00100000)
        Name (_STA, Zero)
        OperationRegion (ZSCF, PCI_Config, 0x00, 0x40)
        Field (ZSCF, DWordAcc, NoLock, Preserve)
        {
            Offset (0x18),
            ZSBL,   32,                 // BAR2, low dword
            ZSBH,   32                  // BAR2 high dword (BAR3) for a 64-bit BAR
        }
    }


    Device (\_SB.PCI0.LPCB)
    {
        Device (GMUX)
        {
            Name (_HID, EisaId ("APP000B"))
            Name (_CID, "gmux")
            Name (_STA, 0x0B)
            /* The real _CRS of the Mac. */
            Name (ZMRS, ResourceTemplate ()
            {
                IO (Decode16,
                    0x0700,             // Range Minimum
                    0x07FF,             // Range Maximum
                    0x01,               // Alignment
                    0xFF,               // Length (8 bits: Linux shows io 0x700-0x7fe)
                    )
            })

            /*
             * TEST ONLY: the simulator window, BAR2 + 0x10000
             * (GMUX_SIM_BAR_OFFSET), 0x1000 long (GMUX_SIM_WINDOW_LEN).
             * QEMU's DSDT is revision 1, so AML integers are 32 bits wide and
             * a BAR above 4 GiB (OVMF puts it there) cannot be computed as
             * one number: the low and high dwords of _MIN and _MAX are
             * filled separately. The window never crosses a 4 GiB boundary
             * (the BAR is 1 MiB, naturally aligned).
             */
            Name (ZMSW, ResourceTemplate ()
            {
                QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed,
                    NonCacheable, ReadWrite,
                    0x0000000000000000, // Granularity
                    0x0000000000000000, // Range Minimum (set by _CRS)
                    0x0000000000000FFF, // Range Maximum (set by _CRS)
                    0x0000000000000000, // Translation Offset
                    0x0000000000001000, // Length
                    ,, , AddressRangeMemory, TypeStatic)
            })

            Method (_CRS, 0, Serialized)
            {
                /* No device at 00:10.0 reads all ones. */
                Store (\_SB.PCI0.ZSIM.ZSBL, Local0)
                If (LEqual (Local0, 0xFFFFFFFF))
                {
                    Return (ZMRS)       // no simulator: the Mac's resources only
                }

                /* The high dword only means something for a 64-bit BAR. */
                Store (Zero, Local1)
                If (LEqual (And (Local0, 0x06), 0x04))
                {
                    Store (\_SB.PCI0.ZSIM.ZSBH, Local1)
                }

                /* A BAR the firmware left unassigned reads 0. */
                If (LAnd (LEqual (And (Local0, 0xFFFFFFF0), Zero), LEqual (Local1, Zero)))
                {
                    Return (ZMRS)
                }

                /* QWord descriptor: _MIN at byte 14, _MAX at byte 22. */
                CreateDWordField (ZMSW, 0x0E, ZMNL)
                CreateDWordField (ZMSW, 0x12, ZMNH)
                CreateDWordField (ZMSW, 0x16, ZMXL)
                CreateDWordField (ZMSW, 0x1A, ZMXH)
                Add (And (Local0, 0xFFFFFFF0), 0x00010000, ZMNL)
                Add (ZMNL, 0x0FFF, ZMXL)
                Store (Local1, ZMNH)
                Store (Local1, ZMXH)
                Return (ConcatenateResTemplate (ZMRS, ZMSW))
            }
            Name (_PRW, Package (0x02)
            {
                0x16,                   // GPE: PCH GPIO 6 (GPI routed to GPE 0x16)
                0x03
            })

            Scope (\_GPE)
            {
                Method (_L16, 0, NotSerialized)
                {
                    \ZTRC ("\\_GPE._L16")
                    Notify (\_SB.PCI0.LPCB.GMUX, 0x80)
                }
            }

            Name (GMGP, 0x16)

            /*
             * TEST ONLY: GMGP names a GPE that does not exist (ZGPB) or the
             * real one again (ZGPR), for the driver's path where
             * acpi_enable_gpe() fails (qemu-tests/tests/59-gmux-notify-failures.sh).
             */
            Method (ZGPB, 0, NotSerialized)
            {
                \ZTRA ("set \\_SB.PCI0.LPCB.GMUX.GMGP 238")
                Store (0xEE, GMGP)
            }

            Method (ZGPR, 0, NotSerialized)
            {
                \ZTRA ("set \\_SB.PCI0.LPCB.GMUX.GMGP 22")
                Store (0x16, GMGP)
            }
            Method (GMSP, 1, NotSerialized)
            {
                \ZTRC (Concatenate ("\\_SB.PCI0.LPCB.GMUX.GMSP ", ToDecimalString (Arg0)))
                If (LLessEqual (Arg0, One))
                {
                    Or (\GP06, Arg0, \GP06)
                }
            }

            Method (GMLV, 0, NotSerialized)
            {
                \ZTRC ("\\_SB.PCI0.LPCB.GMUX.GMLV")
                Return (\GP06)
            }
        }
    }
}
