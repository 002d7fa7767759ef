/// What the animator numbers by slot — its item records and boundary bodies, whose slot their
/// engine bodies and shapes carry (`EngineOwner`) — with the freed slots to reuse.
///
/// One table for both, so the slot rules are written once: a freed slot is reused before the
/// table grows, the last freed first (snapshots store the free list in that order, and a restored
/// animator must hand out the same slots as the original).
struct SlotTable<Element> {
    /// The entries by slot; `nil` for a free slot.
    private(set) var slots: [Element?] = []
    /// The free slots; the last is reused next.
    private(set) var free: [Int] = []

    init() {}

    /// A table as a snapshot describes it: `count` slots holding `entries`, and `free` to reuse.
    init(count: Int, entries: [(slot: Int, element: Element)], free: [Int]) {
        slots = Array(repeating: nil, count: count)
        for e in entries { slots[e.slot] = e.element }
        self.free = free
    }

    /// The number of slots, free ones included.
    var count: Int { slots.count }

    /// The entry in `slot`; `nil` for a free slot or one past the end.
    subscript(slot: Int) -> Element? { slots.indices.contains(slot) ? slots[slot] : nil }

    /// Takes a slot for a new entry (put there with `fill`): the last freed, or a new one.
    mutating func claim() -> Int {
        if let slot = free.popLast() { return slot }
        slots.append(nil)
        return slots.count - 1
    }

    /// Puts `element` in `slot`, which `claim()` returned.
    mutating func fill(_ slot: Int, with element: Element) { slots[slot] = element }

    /// Empties `slot` and keeps it for reuse.
    mutating func release(_ slot: Int) {
        slots[slot] = nil
        free.append(slot)
    }
}
