import Foundation

/// The items of an item-holding behaviour: an array in the order added (which is the order of
/// every loop over them), without duplicates.
struct ItemList {
    private(set) var items: [any DynamicItem] = []
    /// For lookups only; never iterated.
    private var ids: Set<ObjectIdentifier> = []

    init(_ items: [any DynamicItem]) {
        for item in items { _ = add(item) }
    }

    /// Appends `item` unless it is already present; returns whether it was added.
    mutating func add(_ item: any DynamicItem) -> Bool {
        guard ids.insert(ObjectIdentifier(item)).inserted else { return false }
        items.append(item)
        return true
    }

    /// Removes `item`; returns whether it was present.
    mutating func remove(_ item: any DynamicItem) -> Bool {
        guard ids.remove(ObjectIdentifier(item)) != nil,
              let index = items.firstIndex(where: { $0 === item }) else { return false }
        items.remove(at: index)
        return true
    }

    func contains(_ item: any DynamicItem) -> Bool {
        ids.contains(ObjectIdentifier(item))
    }
}
