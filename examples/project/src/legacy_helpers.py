"""Old helpers kept for compatibility; nothing imports them any more."""


def count_items(items):
    total = 0
    for value in items.values():
        total += value
    return total
