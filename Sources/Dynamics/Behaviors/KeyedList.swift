import Foundation

/// Values under distinct keys, in the order their keys were first added, with lookup, insertion,
/// replacement and removal by key in amortised O(1): the explicit boundaries of a collision
/// behaviour (by identifier) and the velocities waiting in an item behaviour (by item).
///
/// As ``IdentityList``: a removal leaves a hole rather than shifting what follows, and the holes
/// are squeezed out (an O(n) pass paid for by the ≥ n/2 removals before it) once they outnumber
/// the entries. Order is that of insertion and never depends on hashing: `position` is only ever
/// looked up. Replacing the value of a key keeps its place, as UIKit keeps a re-added boundary's.
///
/// An entry's *index* (its rank in order, 0 … count − 1) is what snapshots name; reading one
/// squeezes the holes out first, so it costs O(1) after one O(n) pass.
struct KeyedList<Key: Hashable, Value> {
    /// The entries in order, with `nil` where one was removed.
    private var slots: [(key: Key, value: Value)?] = []
    /// Lookup only: a key → its entry's place in `slots`.
    private var position: [Key: Int] = [:]

    init() {}

    /// The number of entries.
    var count: Int { position.count }

    var isEmpty: Bool { position.isEmpty }

    /// The value under `key`, or nil.
    subscript(key: Key) -> Value? {
        guard let i = position[key] else { return nil }
        return slots[i]!.value
    }

    func contains(_ key: Key) -> Bool { position[key] != nil }

    /// The entries in order (O(n)).
    var entries: [(key: Key, value: Value)] { slots.compactMap { $0 } }

    /// The keys in order.
    var keys: [Key] { entries.map(\.key) }

    /// Stores `value` under `key`: in place when the key is present (returning the value it
    /// replaces), appended otherwise (returning nil).
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> Value? {
        if let i = position[key] {
            let old = slots[i]!.value
            slots[i] = (key, value)
            return old
        }
        position[key] = slots.count
        slots.append((key, value))
        return nil
    }

    /// Changes the value under `key` in place; false (and `body` not called) when it is absent.
    @discardableResult
    mutating func modify(_ key: Key, _ body: (inout Value) -> Void) -> Bool {
        guard let i = position[key] else { return false }
        body(&slots[i]!.value)
        return true
    }

    /// Changes every value in place, in order.
    mutating func modifyAll(_ body: (inout Value) -> Void) {
        for i in slots.indices where slots[i] != nil { body(&slots[i]!.value) }
    }

    /// Removes the entry under `key`, keeping the others' order; returns its value, or nil.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let i = position.removeValue(forKey: key) else { return nil }
        let old = slots[i]!.value
        slots[i] = nil
        if slots.count - position.count > max(16, position.count) { compact() }
        return old
    }

    mutating func removeAll() {
        slots.removeAll()
        position.removeAll()
    }

    /// `keys` (some perhaps absent or repeated) in the order of the list, each present one once:
    /// O(k log k) for k keys, whatever the list's size.
    func ordered(_ keys: [Key]) -> [Key] {
        var places = keys.compactMap { position[$0] }
        places.sort()
        var result: [Key] = []
        result.reserveCapacity(places.count)
        var last = -1
        for p in places where p != last {
            result.append(slots[p]!.key)
            last = p
        }
        return result
    }

    // MARK: By index (rank in order)

    /// The index (rank in order) of `key`'s entry, or nil.
    mutating func index(of key: Key) -> Int? {
        compactIfNeeded()
        return position[key]
    }

    /// The entry at index `i` (0 ..< count).
    mutating func entry(at i: Int) -> (key: Key, value: Value) {
        compactIfNeeded()
        return slots[i]!
    }

    /// Changes the value at index `i` (0 ..< count) in place.
    mutating func modify(at i: Int, _ body: (inout Value) -> Void) {
        compactIfNeeded()
        body(&slots[i]!.value)
    }

    private mutating func compactIfNeeded() {
        if slots.count != position.count { compact() }
    }

    /// Squeezes the holes out of `slots` and renumbers `position`.
    private mutating func compact() {
        var kept: [(key: Key, value: Value)?] = []
        kept.reserveCapacity(position.count)
        for case let e? in slots {
            position[e.key] = kept.count
            kept.append(e)
        }
        slots = kept
    }
}
