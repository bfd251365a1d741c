/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.asl - TEST ONLY: the firmware-call trace of a profile
 *
 * Every firmware method that a profile offers tb_macpm, the gmux driver or
 * the PCI core (_PS0/_PS3 of the ports and functions, RTPC, TRPE, XRPE,
 * XRIL, the plug GPE methods, ...) starts with \ZTRC ("its path[ args]"),
 * and a TEST ONLY setter (ZSET) with \ZTRA ("set <path> <value>"). The
 * guest takes the trace with \ZTRT (guest-lib.sh, fw_trace_take), which
 * returns it and starts a new one in one evaluation, under ACPICA's
 * interpreter lock: no call falls between the two. The host replays the
 * calls, in their order, on the Mac's real tables (qemu-tests/replay/).
 * A trace that outgrows ZTRA's bound (no test took it for too long) says
 * how many entries it lost ("overflow N"): the replay then fails rather
 * than guess.
 */
DefinitionBlock ("", "SSDT", 2, "MACSUP", "ZTRACE", 0x00000001)
{
    Name (\ZTRS, "")                    // the trace since the last \ZTRT
    Name (\ZTRO, Zero)                  // entries lost since then: the trace was full

    /* append one line */
    Method (\ZTRA, 1, Serialized)
    {
        If ((SizeOf (\ZTRS) > 0xF000))
        {
            \ZTRO++
        }
        Else
        {
            \ZTRS = Concatenate (\ZTRS, Concatenate (Arg0, "\n"))
        }
    }

    /* a firmware method ran: Arg0 is its path in this profile, then its arguments */
    Method (\ZTRC, 1, Serialized)
    {
        \ZTRA (Concatenate ("call ", Arg0))
    }

    /* the trace so far, and a new one from here */
    Method (\ZTRT, 0, Serialized)
    {
        Local0 = \ZTRS
        If ((\ZTRO != Zero))
        {
            Local0 = Concatenate (Local0, Concatenate (Concatenate ("overflow ",
                ToDecimalString (\ZTRO)), "\n"))
            \ZTRO = Zero
        }

        \ZTRS = ""
        Return (Local0)
    }
}
