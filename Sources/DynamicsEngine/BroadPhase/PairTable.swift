/// An open-addressing hash map from a 64-bit pair key to a contact index, with a short list of
/// partners per shape.
///
/// Only ever looked up, never iterated, so its slot order cannot leak into the simulation's order
/// (determinism). Linear probing with backward-shift deletion keeps it free of tombstones.
///
/// The partner lists serve the pair search, which asks "has `p` a pair with `q`?" for every
/// candidate `q` of a moved shape `p`: a hash lookup is a cache miss per candidate, while `p`'s list
/// is two cache lines shared by all its candidates. A list holds up to `listCapacity` partners; a
/// shape with more is marked overflowed and answered by the hash map until its pairs fall to
/// `relistBelow`, when the world lists them again (`relist`). Before both (14 partners, never
/// relisted), a pile's shapes that once passed the capacity stayed on the hash map: washer ended
/// with 7 748 of its 8 100 shapes overflowed (1 089 then had more than 14 pairs) and 34 000 of
/// its 43 000 lookups a step were cache misses; now 19 shapes and 1 800 lookups.
struct PairTable {
    private var keys: [UInt64]
    private var values: [Int32]
    private(set) var count = 0
    private var mask: Int
    private static let empty = UInt64.max
    /// Per shape, `listStride` slots: the number of its pairs, the overflow flag (0 or 1), then its
    /// partners (exactly `count` of them while not overflowed), in no particular order.
    private var partners: [Int32] = []
    /// Per shape, its crowding pairs (`World.crowdLimit`), as the callers of `insert` and
    /// `remove` say; grown with `partners`. Rebuilt with the table.
    private var crowd: [Int32] = []
    static let listStride = 32
    static let listCapacity = listStride - 2
    /// The pair count at which an overflowed shape is listed again: below the capacity, so a shape
    /// whose count hovers there is not listed at every step.
    static let relistBelow = listCapacity - 3

    init(capacity: Int = 64) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        keys = Array(repeating: PairTable.empty, count: n)
        values = Array(repeating: -1, count: n)
        mask = n - 1
    }

    @inline(__always) private static func hash(_ k: UInt64) -> Int {
        var x = k &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        return Int(truncatingIfNeeded: x)
    }

    func find(_ key: UInt64) -> Int32 {
        var i = PairTable.hash(key) & mask
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == PairTable.empty { return -1 }
            i = (i + 1) & mask
        }
    }

    /// The keys and partner lists over raw memory, for the pair search's inner loop: a lookup there
    /// costs no reference counting and no bounds check. Only for the duration of `body`; the table
    /// must not change meanwhile.
    func withKeys<R>(_ body: (KeyView) -> R) -> R {
        keys.withUnsafeBufferPointer { k in
            partners.withUnsafeBufferPointer { l in
                crowd.withUnsafeBufferPointer { c in
                    body(KeyView(keys: k.baseAddress!, mask: mask, lists: l.baseAddress, listedShapes: l.count / PairTable.listStride,
                                 crowd: c.baseAddress, crowdedShapes: c.count))
                }
            }
        }
    }

    /// Shape `s`'s crowding pairs.
    func crowdCount(_ s: Int32) -> Int32 { s >= 0 && Int(s) < crowd.count ? crowd[Int(s)] : 0 }

    /// The most crowding pairs any shape has (for tests: the budget's headroom in a scene).
    var maximumCrowdCount: Int32 { crowd.max() ?? 0 }

    /// Read-only presence test over a table's keys and partner lists (see `withKeys`).
    struct KeyView {
        let keys: UnsafePointer<UInt64>
        let mask: Int
        let lists: UnsafePointer<Int32>?
        let listedShapes: Int
        let crowd: UnsafePointer<Int32>?
        let crowdedShapes: Int

        /// Shape `s`'s crowding pairs.
        @inline(__always)
        func crowdCount(_ s: Int32) -> Int32 {
            guard Int(s) < crowdedShapes, let crowd else { return 0 }
            return crowd[Int(s)]
        }

        /// Whether shapes `p` and `q` have a pair: from `p`'s partner list unless it overflowed.
        @inline(__always)
        func contains(_ p: Int32, _ q: Int32) -> Bool {
            guard Int(p) < listedShapes, let lists else { return false }   // never had a pair
            let list = lists + Int(p) &* PairTable.listStride
            if list[1] != 0 { return contains(pairKey(p, q)) }
            for i in 0..<Int(list[0]) where list[2 &+ i] == q { return true }
            return false
        }

        /// Whether `key` is in the table. Reads only the key array: the pair search needs no value.
        @inline(__always)
        func contains(_ key: UInt64) -> Bool {
            var i = PairTable.hash(key) & mask
            while true {
                let k = keys[i]
                if k == key { return true }
                if k == PairTable.empty { return false }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds the pair `key` (its contact `value`); `crowding` says whether it counts toward the
    /// crowding pairs of the key's lower and higher shape.
    mutating func insert(_ key: UInt64, _ value: Int32, crowding: (low: Bool, high: Bool)) {
        if (count + 1) * 2 > keys.count { grow() }
        guard place(key, value) else { return }
        let (a, b) = PairTable.shapes(of: key)
        addPartner(a, b)
        addPartner(b, a)
        if crowding.low { addCrowd(a, 1) }
        if crowding.high { addCrowd(b, 1) }
    }

    private mutating func addCrowd(_ s: Int32, _ delta: Int32) {
        if Int(s) >= crowd.count {
            crowd.append(contentsOf: repeatElement(0, count: max(Int(s) + 1, 3 * crowd.count / 2) - crowd.count))
        }
        crowd[Int(s)] += delta
    }

    /// Puts `key` in its hash slot; false when it was there already (its value is replaced).
    private mutating func place(_ key: UInt64, _ value: Int32) -> Bool {
        var i = PairTable.hash(key) & mask
        while keys[i] != PairTable.empty {
            if keys[i] == key { values[i] = value; return false }
            i = (i + 1) & mask
        }
        keys[i] = key; values[i] = value; count += 1
        return true
    }

    @inline(__always) private static func shapes(of key: UInt64) -> (Int32, Int32) {
        (Int32(truncatingIfNeeded: key >> 32), Int32(truncatingIfNeeded: key & 0xFFFF_FFFF))
    }

    private mutating func addPartner(_ s: Int32, _ other: Int32) {
        let base = Int(s) * PairTable.listStride
        if base >= partners.count {
            // whole lists, at least half again as many: shapes created one by one cost amortised O(1)
            let shapes = max(Int(s) + 1, 3 * (partners.count / PairTable.listStride) / 2)
            partners.append(contentsOf: repeatElement(0, count: shapes * PairTable.listStride - partners.count))
        }
        let n = Int(partners[base])
        partners[base] = Int32(n + 1)
        if partners[base + 1] != 0 { return }
        if n == PairTable.listCapacity { partners[base + 1] = 1; return }
        partners[base + 2 + n] = other
    }

    private mutating func removePartner(_ s: Int32, _ other: Int32) {
        let base = Int(s) * PairTable.listStride
        let n = Int(partners[base])
        partners[base] = Int32(n - 1)
        if partners[base + 1] != 0 {
            if n == 1 { partners[base + 1] = 0 }   // empty again: the (empty) list is exact
            return
        }
        for i in 0..<n where partners[base + 2 + i] == other {
            partners[base + 2 + i] = partners[base + 2 + n - 1]
            partners[base + 2 + n - 1] = 0
            return
        }
    }

    /// Whether every shape's pair count and partner list agree with the keys (for validation).
    func partnerListsAreConsistent() -> Bool {
        var counts = [Int32](repeating: 0, count: partners.count / PairTable.listStride)
        for k in keys where k != PairTable.empty {
            let (a, b) = PairTable.shapes(of: k)
            guard Int(a) < counts.count, Int(b) < counts.count else { return false }
            counts[Int(a)] += 1; counts[Int(b)] += 1
        }
        for s in 0..<counts.count {
            let base = s * PairTable.listStride
            if partners[base] != counts[s] { return false }
            if partners[base + 1] != 0 { continue }
            if counts[s] > Int32(PairTable.listCapacity) { return false }
            for i in 0..<Int(counts[s]) where find(pairKey(Int32(s), partners[base + 2 + i])) < 0 { return false }
        }
        return true
    }

    /// Whether shape `s`'s list overflowed and its pairs have fallen to `relistBelow`: the world
    /// then gives its partners to `relist`.
    func wantsRelist(_ s: Int32) -> Bool {
        isOverflowed(s) && partners[Int(s) * PairTable.listStride] <= Int32(PairTable.relistBelow)
    }

    /// Whether shape `s`'s pairs are answered by the hash map rather than its partner list.
    func isOverflowed(_ s: Int32) -> Bool {
        let base = Int(s) * PairTable.listStride
        return base < partners.count && partners[base + 1] != 0
    }

    /// Lists shape `s`'s partners again and clears its overflow flag; `others` must be all of them
    /// (else the list stays overflowed: the hash map still answers, only slower).
    mutating func relist(_ s: Int32, _ others: some Collection<Int32>) {
        let base = Int(s) * PairTable.listStride
        guard others.count == Int(partners[base]) && others.count <= PairTable.listCapacity else { return }
        partners[base + 1] = 0
        for (i, other) in others.enumerated() { partners[base + 2 + i] = other }
        for i in others.count..<PairTable.listCapacity { partners[base + 2 + i] = 0 }
    }

    /// Removes the pair `key`; `crowding` must be what its `insert` was told.
    mutating func remove(_ key: UInt64, crowding: (low: Bool, high: Bool)) {
        var i = PairTable.hash(key) & mask
        while true {
            if keys[i] == PairTable.empty { return }
            if keys[i] == key { break }
            i = (i + 1) & mask
        }
        // backward-shift: pull later entries of the probe run into the hole
        var hole = i
        var j = (i + 1) & mask
        while keys[j] != PairTable.empty {
            let home = PairTable.hash(keys[j]) & mask
            // move j into hole if its home is not in (hole, j] cyclically
            let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !inRange {
                keys[hole] = keys[j]; values[hole] = values[j]
                hole = j
            }
            j = (j + 1) & mask
        }
        keys[hole] = PairTable.empty; values[hole] = -1
        count -= 1
        let (a, b) = PairTable.shapes(of: key)
        removePartner(a, b)
        removePartner(b, a)
        if crowding.low { addCrowd(a, -1) }
        if crowding.high { addCrowd(b, -1) }
    }

    private mutating func grow() {
        let oldK = keys, oldV = values
        let n = keys.count * 2
        keys = Array(repeating: PairTable.empty, count: n)
        values = Array(repeating: -1, count: n)
        mask = n - 1
        count = 0
        // the partner lists do not depend on the slots
        for i in 0..<oldK.count where oldK[i] != PairTable.empty { _ = place(oldK[i], oldV[i]) }
    }
}

/// What one pair search found: new pair keys, and keys between two jointed bodies that still need
/// the joint lookup.
struct PairCandidates {
    var found: [UInt64] = []
    var jointed: [UInt64] = []
    /// Crowding pairs this search left out (`World.crowdLimit`).
    var limited = 0
    /// The crowding pairs the proxy being searched may still add (`World.crowdLimit`).
    var room: Int32 = 0
}
