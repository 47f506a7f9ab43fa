from inventory import Inventory, OutOfStock


def test_add_and_total():
    inv = Inventory()
    inv.add("apple", 3)
    inv.add("pear")
    assert inv.total() == 4
