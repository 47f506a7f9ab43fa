"""Keeps count of items in stock."""


class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, count=1):
        self.items[name] = self.items.get(name, 0) + count

    def has(self, name, count=1):
        have = self.items.get(name, 0)
        return have >= count

    def remove(self, name, count=1):
        have = self.items.get(name, 0)
        if have < count:
            raise OutOfStock(name)
        self.items[name] = have + count

    def total(self):
        return sum(self.items.values())
