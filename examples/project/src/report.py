"""Text reports of an inventory."""

from inventory import Inventory


def summary(inventory: Inventory) -> str:
    lines = []
    for name, count in sorted(inventory.items.items()):
        lines.append(f"{name}: {count}")
    return "\n".join(lines)


def low_stock(inventory: Inventory, threshold: int = 2) -> list[str]:
    return [name for name, count in inventory.items.items() if count < threshold]
