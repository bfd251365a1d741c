// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_gmux_standin - TEST ONLY: stands in for the in-tree apple-gmux
 *
 * Debian's in-tree apple-gmux cannot bind in QEMU: no port I/O gmux answers
 * there. To test that apple_gmux_ng notices the in-tree driver holding the
 * gmux and says how to hand it over, this module binds the APP000B device
 * under the in-tree driver's name, "apple-gmux", and does nothing else.
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/module.h>
#include <linux/pnp.h>

static int standin_probe(struct pnp_dev *pnp, const struct pnp_device_id *id)
{
	dev_info(&pnp->dev, "TEST ONLY: bound as a stand-in for the in-tree apple-gmux\n");
	return 0;
}

static const struct pnp_device_id standin_ids[] = {
	{ "APP000B", 0 },
	{ "", 0 },
};

static struct pnp_driver standin_driver = {
	.name		= "apple-gmux",
	.probe		= standin_probe,
	.id_table	= standin_ids,
};

static int __init standin_init(void)
{
	return pnp_register_driver(&standin_driver);
}
module_init(standin_init);

static void __exit standin_exit(void)
{
	pnp_unregister_driver(&standin_driver);
}
module_exit(standin_exit);

MODULE_DESCRIPTION("TEST ONLY: binds APP000B as \"apple-gmux\" for the QEMU harness");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
