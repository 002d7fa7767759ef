import Foundation

/// Distinct objects (by identity) in the order added, with append, removal and membership in
/// amortised O(1), so building or emptying a list of n costs O(n) (an array's `firstIndex` and
/// `remove(at:)` made it O(n²): 10 000 behaviours took seconds).
///
/// A removal leaves a hole in `slots` rather than shifting what follows (which would also move
/// every later index in `position`); the holes are squeezed out once they outnumber the elements,
/// an O(n) pass paid for by the ≥ n/2 removals before it. ``elements`` is the dense array in order,
/// kept beside the slots and rebuilt only when read after a removal. Order is that of insertion and
/// never depends on hashing: `position` is only ever looked up.
struct IdentityList<Element> {
    /// The elements in order, with `nil` where one was removed.
    private var slots: [Element?] = []
    /// Lookup only: an element's identity → its index in `slots`.
    private var position: [ObjectIdentifier: Int] = [:]
    /// The elements in order without holes; valid unless `denseIsStale`.
    private var dense: [Element] = []
    private var denseIsStale = false

    init() {}

    init(_ elements: [Element]) {
        for e in elements { _ = append(e) }
    }

    @inline(__always) private static func id(_ e: Element) -> ObjectIdentifier { ObjectIdentifier(e as AnyObject) }

    /// The number of elements.
    var count: Int { position.count }

    var isEmpty: Bool { position.isEmpty }

    /// The elements in the order added.
    var elements: [Element] {
        mutating get {
            if denseIsStale {
                dense = slots.compactMap { $0 }
                denseIsStale = false
            }
            return dense
        }
    }

    func contains(_ e: Element) -> Bool { position[Self.id(e)] != nil }

    /// Appends `e` unless it is already present; returns whether it was added.
    mutating func append(_ e: Element) -> Bool {
        let key = Self.id(e)
        guard position[key] == nil else { return false }
        position[key] = slots.count
        slots.append(e)
        if !denseIsStale { dense.append(e) }
        return true
    }

    /// Removes `e`, keeping the others' order; returns whether it was present.
    mutating func remove(_ e: Element) -> Bool {
        guard let i = position.removeValue(forKey: Self.id(e)) else { return false }
        slots[i] = nil
        denseIsStale = true
        if slots.count - position.count > max(16, position.count) { compact() }
        return true
    }

    mutating func removeAll() {
        slots.removeAll()
        position.removeAll()
        dense.removeAll()
        denseIsStale = false
    }

    /// Empties the list and returns its elements in order, holding no other reference to them.
    mutating func takeAll() -> [Element] {
        let all = elements
        removeAll()
        return all
    }

    /// Squeezes the holes out of `slots` and renumbers `position`.
    private mutating func compact() {
        var kept: [Element?] = []
        kept.reserveCapacity(position.count)
        for case let e? in slots {
            position[Self.id(e)] = kept.count
            kept.append(e)
        }
        slots = kept
    }
}

/// The items of an item-holding behaviour: in the order added (which is the order of every loop
/// over them), without duplicates; adding, removing and looking one up cost amortised O(1).
struct ItemList {
    private var list = IdentityList<any DynamicItem>()

    init(_ items: [any DynamicItem]) {
        list = IdentityList(items)
    }

    /// The items, in the order added.
    var items: [any DynamicItem] {
        mutating get { list.elements }
    }

    /// Appends `item` unless it is already present; returns whether it was added.
    mutating func add(_ item: any DynamicItem) -> Bool { list.append(item) }

    /// Removes `item`; returns whether it was present.
    mutating func remove(_ item: any DynamicItem) -> Bool { list.remove(item) }

    func contains(_ item: any DynamicItem) -> Bool { list.contains(item) }
}
